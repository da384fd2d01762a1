//! `item-near-limit`: items a pattern writes within reach of DynamoDB's 400 KB item limit.

use super::{numbers, Context, Evidence, Finding, Rule, Severity};
use crate::format::percent;
use crate::limits::MAX_ITEM_BYTES;
use crate::scenario::{Op, SizeSpec};

/// A write of items at least this share of the limit is within reach of it.
const NEAR: f64 = 0.9;
/// A log-normal size whose share of items over the limit is at least this is an error: that
/// share of the writes would be refused.
const REFUSED_SHARE: f64 = 1e-6;
/// The share of a log-normal's items above which a size counts as reached (its 99.9th
/// percentile).
const REACHED_SHARE: f64 = 1e-3;

/// Items within reach of the 400 KB limit.
pub(super) struct ItemLimit;

impl Rule for ItemLimit {
    fn ids(&self) -> &'static [&'static str] {
        &["item-near-limit"]
    }

    fn worst(&self) -> Severity {
        Severity::Error
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Scenario]
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        let sc = cx.runs.sc;
        let limit = MAX_ITEM_BYTES as f64;
        let mut out = Vec::new();
        for p in sc.patterns.iter().filter(|p| p.op.is_write() && p.op != Op::DeleteItem) {
            let (over, near, what) = match p.size {
                SizeSpec::Fixed(b) => (0.0, if b as f64 >= NEAR * limit { 1.0 } else { 0.0 }, format!("{b}-byte items")),
                SizeSpec::LogNormal { mean, sigma } => {
                    // The log of the size is normal: mu = ln(mean) - sigma^2 / 2.
                    let mu = mean.ln() - sigma * sigma / 2.0;
                    let above = |bytes: f64| crate::stats::normal_upper_tail((bytes.ln() - mu) / sigma);
                    (above(limit), above(NEAR * limit), format!("log-normal items (mean {mean:.0} bytes, sigma {sigma})"))
                }
                SizeSpec::Uniform { lo, hi } => {
                    let near = NEAR * limit;
                    let share = if hi as f64 <= near { 0.0 } else { (hi as f64 - near.max(lo as f64)) / (hi - lo).max(1) as f64 };
                    (0.0, share.min(1.0), format!("items of {lo} to {hi} bytes"))
                }
            };
            let severity = if over >= REFUSED_SHARE {
                Severity::Error
            } else if near >= REACHED_SHARE {
                Severity::Warn
            } else {
                continue;
            };
            let mut evidence = vec![format!(
                "{}: {what}; {} of them at least {} bytes (90 % of the limit)",
                p.name,
                percent(near),
                (NEAR * limit).round()
            )];
            if over > 0.0 {
                evidence.push(format!(
                    "{} of them over {MAX_ITEM_BYTES} bytes: DynamoDB refuses those writes (ValidationException); the simulation writes them at {MAX_ITEM_BYTES} bytes",
                    percent(over)
                ));
            }
            out.push(Finding {
                id: "item-near-limit".into(),
                severity,
                resource: Some(sc.table.name.clone()),
                title: format!("{} writes items within reach of DynamoDB's 400 KB item limit", p.name),
                evidence,
                numbers: numbers(&[("share_over_limit", over), ("share_near_limit", near), ("limit_bytes", limit)]),
                source: "Developer Guide, ServiceQuotas (400 KB an item, names and values); measured to the byte: 409,600 accepted, 409,601 refused (docs/dynamodb-behaviour.md §17)".into(),
                fix: "keep the large attribute in S3 and its key in the item, compress it, or split the item into several items of one collection (vertical partitioning)".into(),
                assumptions: Vec::new(),
                effect: None,
            });
        }
        out
    }
}
