//! `unwritten-index`: a GSI or LSI no pattern writes ([`Scenario::unwritten_indexes`]).

use super::{numbers, Context, Evidence, Finding, Rule, Severity};
use crate::scenario::Scenario;

/// A GSI or LSI that no pattern writes (and perhaps none reads).
pub(super) struct UnwrittenIndex;

impl Rule for UnwrittenIndex {
    fn ids(&self) -> &'static [&'static str] {
        &["unwritten-index"]
    }

    fn worst(&self) -> Severity {
        Severity::Warn
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Scenario]
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        unwritten(cx.runs.sc)
    }
}

fn unwritten(sc: &Scenario) -> Vec<Finding> {
    sc.unwritten_indexes()
        .into_iter()
        .map(|u| Finding {
            id: "unwritten-index".into(),
            severity: Severity::Warn,
            resource: Some(u.name.to_string()),
            title: match u.reader {
                None => format!("{} {} is neither written nor read by any pattern", u.kind(), u.name),
                Some(_) => format!("no pattern writes {} {}", u.kind(), u.name),
            },
            evidence: vec![u.message()],
            numbers: numbers(&[("read", f64::from(u8::from(u.reader.is_some())))]),
            source: "docs/dynamodb-behaviour.md §1.3: every write of an item that carries an index's key attributes writes the index"
                .into(),
            fix: match u.reader {
                None => format!("drop {} or add the patterns that use it", u.name),
                Some(_) => format!(
                    "give the patterns that write {}'s items (their entity's `gsi`/`lsi`, or `index_writes`), so its write load is simulated",
                    u.name
                ),
            },
            effect: None,
            assumptions: Vec::new(),
        })
        .collect()
}
