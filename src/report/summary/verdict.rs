//! The verdict that opens the terminal summary and `report.html`: did the design hold, where
//! and when it throttled, why (the throttle reasons and failure causes in words), what the window
//! cost, and the next thing to try. Built from [`Summary`] alone, so `ddbsim plot` rebuilds it.

use super::resources::{ResourceSummary, ThrottleSpan};
use super::Summary;
use crate::engine::ResourceKind;
use crate::format::{clock, elapsed, grouped, percent, usd, usd_window, window};
use crate::model::{CapacityAction, CapacityMode, Dim, Reason, ThrottlingReason};
use crate::scenario::Window;
use serde::{Deserialize, Serialize};

/// The throttled share of attempts (and of requests failed) a design may reach and still hold,
/// unless `--max-throttle` says otherwise: the default of `compare` and `recommend`.
pub const DEFAULT_MAX_THROTTLE: f64 = 0.001;

/// The verdict on a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Verdict {
    /// Throttled share of attempts and failed share of requests both at most `max_throttle`.
    pub held: bool,
    /// The limit judged against.
    pub max_throttle: f64,
    /// Throttled share of attempts, all patterns.
    pub throttled_share: f64,
    /// Requests that failed (attempts or retry quota exhausted, collection limit).
    pub failed: u64,
    /// One sentence: HELD or DID NOT HOLD, with the numbers.
    pub headline: String,
    /// `where`, `when`, `why`, `cost` and `next`, those that apply, in that order.
    pub lines: Vec<VerdictLine>,
}

/// What a line of the verdict is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Topic {
    /// Which resource, dimension, partitions and keys throttled.
    Where,
    /// From when to when.
    When,
    /// The throttle reasons and failures, in words.
    Why,
    /// What the window cost.
    Cost,
    /// The next thing to try.
    Next,
}

impl Topic {
    /// `where`, `when`, `why`, `cost` or `next`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Topic::Where => "where",
            Topic::When => "when",
            Topic::Why => "why",
            Topic::Cost => "cost",
            Topic::Next => "next",
        }
    }
}

/// One line of the verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VerdictLine {
    /// What it is about.
    pub topic: Topic,
    /// What to say.
    pub text: String,
}

/// Capacity events counted by action, in order of first appearance: `412 scale_out, 120 scale_in`.
#[must_use]
pub fn event_counts<'a>(events: impl IntoIterator<Item = &'a crate::engine::CapacityEvent>) -> String {
    let mut counts: Vec<(&str, u64)> = Vec::new();
    for e in events {
        match counts.iter_mut().find(|c| c.0 == e.action.name()) {
            Some(c) => c.1 += 1,
            None => counts.push((e.action.name(), 1)),
        }
    }
    counts.iter().map(|(a, n)| format!("{} {a}", grouped(*n))).collect::<Vec<_>>().join(", ")
}

/// The worst-throttled resource and dimension: the most throttle events.
fn worst(s: &Summary) -> Option<(&ResourceSummary, &ThrottleSpan)> {
    s.resources.iter().flat_map(|r| r.throttling.iter().map(move |t| (r, t))).max_by_key(|(_, t)| t.events)
}

/// What a `ThrottlingReasons` reason means, in words.
fn reason_words(reason: ThrottlingReason, r: &ResourceSummary) -> String {
    let dim = reason.dim.name();
    let cap = if reason.dim == Dim::Read { "3,000 RCU" } else { "1,000 WCU" };
    if reason.reason == Reason::KeyRange {
        if r.mode == CapacityMode::OnDemand {
            format!("a partition's {cap} a second, or on-demand capacity not yet grown to the traffic (it doubles the previous peak at most every 30 minutes)")
        } else {
            format!("a partition's {cap} a second: more {} capacity does not lift it", kind_word(r))
        }
    } else if reason.reason == Reason::Provisioned {
        if r.autoscaling {
            format!("provisioned {dim} capacity and burst credit used up before auto scaling caught up (it acts after two one-minute datapoints above the target)")
        } else {
            format!("provisioned {dim} capacity and burst credit used up")
        }
    } else if reason.reason == Reason::MaxOnDemand {
        format!("the on-demand maximum {dim} throughput set on the {}", kind_word(r))
    } else {
        format!("the account's per-table {dim} quota")
    }
}

/// Raises of `r` in `dim` that a quota refused, in words (empty when none): how many, and
/// the last one's quota and holders.
fn quota_refusals(s: &Summary, r: &ResourceSummary, dim: Dim) -> String {
    let refused: Vec<_> =
        s.capacity_events.iter().filter(|e| e.action == CapacityAction::RefusedQuota && e.id == r.id && e.dimension == Some(dim)).collect();
    let Some(last) = refused.last() else { return String::new() };
    let n = refused.len();
    format!("; {} raise{} refused by a capacity quota, the last: {}", grouped(n as u64), if n == 1 { "" } else { "s" }, last.detail)
}

fn kind_word(r: &ResourceSummary) -> &'static str {
    match r.kind {
        ResourceKind::Gsi => "index",
        ResourceKind::Replica => "replica",
        ResourceKind::Table => "table",
    }
}

fn describe(r: &ResourceSummary) -> String {
    format!("{} ({})", r.name, if r.kind == ResourceKind::Gsi { "GSI" } else { kind_word(r) })
}

impl Verdict {
    /// The verdict on `s` against `max_throttle`.
    #[must_use]
    pub fn of(s: &Summary, max_throttle: f64) -> Self {
        let t = &s.requests;
        let held = t.throttled_attempt_share <= max_throttle && t.failed_share <= max_throttle;
        let mut headline = format!(
            "{} — {} of attempts throttled (limit {})",
            if held { "HELD" } else { "DID NOT HOLD" },
            percent(t.throttled_attempt_share),
            percent(max_throttle)
        );
        headline.push_str(&match t.failed {
            0 => ", no request failed".to_string(),
            n => format!(", {} requests failed ({})", grouped(n), percent(t.failed_share)),
        });
        let mut lines = Vec::new();
        let mut line = |topic: Topic, text: String| lines.push(VerdictLine { topic, text });
        let path = if s.scenario_path.is_empty() { "SCENARIO".to_string() } else { s.scenario_path.clone() };
        let worst = worst(s);
        if let Some((r, span)) = worst {
            let mut w = format!("{} {}s", describe(r), span.dimension.name());
            if let Some(p) = &span.partitions {
                let of = if r.partitions > 0 { format!(" of {}", r.partitions) } else { String::new() };
                w.push_str(&format!(
                    ": partition {} took {} of the throttle events ({} partition{}{of} throttled)",
                    p.worst,
                    percent(p.worst_events as f64 / span.events.max(1) as f64),
                    p.throttled,
                    if p.throttled == 1 { "" } else { "s" }
                ));
            }
            // A key below one request a second is not where the heat is (an even key space's
            // busiest value): naming it would point the reader at nothing.
            if let Some(k) = s.hot_keys.iter().find(|k| k.resource == r.name && k.requests_per_s >= 1.0) {
                w.push_str(&format!("; hottest key {} ({:.0} requests/s, partition {})", k.label(), k.requests_per_s, k.partition));
            }
            let others = s.resources.iter().flat_map(|r| &r.throttling).count() - 1;
            if others > 0 {
                w.push_str(&format!("; {others} other resource/dimension{} throttled too", if others == 1 { "" } else { "s" }));
            }
            line(Topic::Where, w);
            line(
                Topic::When,
                format!(
                    "from {} ({}) to {} ({}), {} minute{} with throttling; worst minute {} with {} throttle events",
                    clock(s.start_unix_s, span.first_s),
                    elapsed(span.first_s),
                    clock(s.start_unix_s, span.last_s + 60),
                    elapsed(span.last_s + 60),
                    grouped(span.minutes),
                    if span.minutes == 1 { "" } else { "s" },
                    clock(s.start_unix_s, span.worst_minute_s),
                    grouped(span.worst_minute_events)
                ),
            );
            let mut reasons: Vec<(&ThrottlingReason, &u64)> = r.throttle_events_by_reason.iter().collect();
            reasons.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            let why: Vec<String> = reasons
                .iter()
                .filter(|(k, _)| span.is_reason(**k))
                .map(|(k, n)| format!("{k} × {}: {}", grouped(**n), reason_words(**k, r)))
                .collect();
            let mut why = why.join("; ");
            if r.kind == ResourceKind::Gsi && span.dimension == Dim::Write {
                why.push_str(" — a GSI that cannot take its index writes throttles the writes to its base table (back-pressure)");
            }
            why.push_str(&quota_refusals(s, r, span.dimension));
            line(Topic::Why, why);
        }
        let failed: Vec<String> = [
            (
                s.patterns.iter().map(|p| p.failed_attempts_exhausted).sum::<u64>(),
                format!("ran out of attempts ({} each)", s.client.max_attempts),
            ),
            (s.patterns.iter().map(|p| p.failed_retry_quota).sum(), "were stopped by the SDK's retry quota".to_string()),
            (
                s.patterns.iter().map(|p| p.failed_item_collection_limit).sum(),
                "were refused by the 10 GB item-collection limit of a table with an LSI".to_string(),
            ),
            (
                s.patterns.iter().map(|p| p.failed_index_not_ready).sum(),
                "read a GSI before its backfill completed (ValidationException)".to_string(),
            ),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, why)| format!("{} requests {why}", grouped(n)))
        .collect();
        if !failed.is_empty() {
            let mut text = format!("failed: {}", failed.join("; "));
            // With several patterns, the one that suffers most may not be where the most
            // throttle events are: name it.
            let worst = s
                .patterns
                .iter()
                .filter(|p| p.requests.failed > 0)
                .max_by(|a, b| a.requests.failed_share.total_cmp(&b.requests.failed_share).then(b.name.cmp(&a.name)));
            if let (true, Some(p)) = (s.patterns.len() > 1, worst) {
                text.push_str(&format!("; the most failed: {}, {} of its requests", p.name, percent(p.requests.failed_share)));
            }
            line(Topic::Why, text);
        }
        if let (true, Some(c)) = (held, &s.on_credit) {
            let event = if s.window == Window::Event {
                " — the window is an event from a rested table ([scenario] window = \"event\"), which may spend it"
            } else {
                ""
            };
            line(Topic::Why, format!("held on credit, not capacity: {}{event}", c.describe()));
        }
        let c = &s.cost;
        let extrapolation = match c.monthly_usd {
            Some(m) => format!("estimate: {} a month if the window repeated for 730 h", usd(m)),
            None => "not extrapolated to a month: [pricing] extrapolate = \"none\", the default below a day".to_string(),
        };
        line(Topic::Cost, format!("{} for the {} simulated ({extrapolation})", usd_window(c.total_usd), window(s.duration_s)));
        line(Topic::Next, next(s, worst, &path, held));
        Self { held, max_throttle, throttled_share: t.throttled_attempt_share, failed: t.failed, headline, lines }
    }
}

impl Verdict {
    /// The verdict as the terminal prints it: the headline, then one indented line per topic.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut o = format!("{}\n", self.headline);
        for l in &self.lines {
            o.push_str(&format!("  {:<6} {}\n", l.topic.name(), l.text));
        }
        o
    }
}

/// The next thing to try.
fn next(s: &Summary, worst: Option<(&ResourceSummary, &ThrottleSpan)>, path: &str, held: bool) -> String {
    let quota = s.patterns.iter().map(|p| p.failed_retry_quota).sum::<u64>();
    let collection = s.patterns.iter().map(|p| p.failed_item_collection_limit).sum::<u64>();
    if held && s.on_credit.is_some() && s.window == Window::Sustained {
        return format!("the same load past the window throttles: `ddbsim recommend {path}` finds the cheapest setting that holds it sustained (or set `[scenario] window = \"event\"` if the window is a one-off from a rested table)");
    }
    if held {
        return format!("`ddbsim recommend {path}` for the cheapest capacity setting that holds this traffic, or `ddbsim compare {path}` for every mode side by side");
    }
    let unready = s.patterns.iter().map(|p| p.failed_index_not_ready).sum::<u64>();
    if unready > 0 && worst.is_none() {
        return "start reading a new GSI once its backfill completes (IndexStatus ACTIVE in DescribeTable; OnlineIndexPercentageProgress in timeseries.csv shows when)".to_string();
    }
    if collection > 0 {
        return "spread the item collection: add a suffix to the partition key of the largest collections, or drop the LSI for a GSI (no 10 GB limit)".to_string();
    }
    let Some((r, span)) = worst else {
        if quota > 0 {
            return "set `client.instances` to your fleet size: every SDK instance has its own retry quota".to_string();
        }
        return format!("`ddbsim compare {path}` to see the traffic under each capacity mode");
    };
    let top = r.throttle_events_by_reason.iter().filter(|(k, _)| span.is_reason(**k)).max_by_key(|(_, n)| **n);
    let reason = top.map(|(k, _)| k.reason);
    let concentrated = span.partitions.as_ref().is_some_and(|p| p.throttled <= 2 && r.partitions > 2);
    let hot = s.hot_keys.iter().find(|k| k.resource == r.name);
    let rolling_load = s.patterns.iter().any(|p| p.bulk_put.as_ref().is_some_and(|b| b.seconds_per_value > 0));
    if reason == Some(Reason::KeyRange) && rolling_load && r.kind == ResourceKind::Table {
        return "shuffle the bulk load's input (order = \"shuffled\"): sorted by partition key, it writes one value's items at a time onto one partition".to_string();
    }
    if reason == Some(Reason::KeyRange) && (concentrated || r.mode == CapacityMode::Provisioned) {
        if let Some(k) = hot {
            return format!(
                "write-shard the hot key {}: `ddbsim shards {path} --key {}` finds the shard count that holds",
                k.key, k.key_space
            );
        }
        if r.kind == ResourceKind::Gsi {
            return format!(
                "give the index {} a partition key with more distinct values (or a write-sharding suffix): its writes pile onto {} key range{}",
                r.name,
                span.partitions.as_ref().map_or(1, |p| p.throttled),
                if span.partitions.as_ref().map_or(1, |p| p.throttled) == 1 { "" } else { "s" }
            );
        }
        return "spread the traffic over more partition-key values: one key range is at its partition's cap".to_string();
    }
    if reason == Some(Reason::KeyRange) {
        return format!(
            "pre-warm the {}: set warm throughput (`[table] warm_read/warm_write`) or a `prewarm` action before the peak",
            kind_word(r)
        );
    }
    if reason == Some(Reason::MaxOnDemand) {
        return format!(
            "raise the on-demand maximum of {} above its peak of {:.0} units/s",
            r.name,
            if span.dimension == Dim::Read { r.peak_minute_rcu_per_s } else { r.peak_minute_wcu_per_s }
        );
    }
    if reason == Some(Reason::AccountLimit) {
        return "ask AWS Support for a higher per-table throughput quota, or split the traffic over tables".to_string();
    }
    if r.kind == ResourceKind::Gsi && span.dimension == Dim::Write {
        return format!(
            "give the GSI {} the write capacity of its base table's writes that reach it (or make it on-demand): `ddbsim recommend {path}`",
            r.name
        );
    }
    format!("`ddbsim recommend {path}` searches provisioned, auto-scaling (target, min, max, daily floors), on-demand and reserved settings for the cheapest that holds")
}
