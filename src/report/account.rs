//! `ddbsim run DIR`: several tables run as one account. Each table's own summary and data
//! files (named by its scenario file), and the account's: a line per table (its verdict, its
//! cost, the raises a quota refused) and the account's total.

use super::summary::verdict::{Topic, VerdictLine};
use super::summary::Summary;
use super::{json, Artifact, Render, ReportError, RunReport};
use crate::engine::RunResult;
use crate::format::{grouped, usd_window};
use crate::model::CapacityAction;
use crate::scenario::{ResourceKind, Scenario};
use serde::Serialize;
use std::fmt::Write as _;

/// Throttling that crossed tables (`[[pattern.also]]`): a table whose transactions were
/// throttled on another table's resources is told where (its own resources may show none),
/// and a table whose resources throttled another table's transactions did not hold, whatever
/// its own requests met. `reports` are the tables' reports, judged, in the order of `tables`
/// and `results`.
pub fn judge_crossings(reports: &mut [(String, String, RunReport<'_>)], tables: &[Scenario], results: &[RunResult]) {
    for (i, r) in results.iter().enumerate() {
        for c in &r.crossings {
            let (owner, other) = (&tables[i], &tables[c.table]);
            let to = |a: &crate::scenario::AlsoSpec| a.leg.as_ref().is_some_and(|l| l.0 == c.table);
            let writing: Vec<&crate::scenario::PatternSpec> =
                owner.patterns.iter().filter(|p| p.also.iter().any(to) || p.then.as_ref().is_some_and(to)).collect();
            let patterns = writing.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ");
            let transactions = writing.iter().any(|p| p.also.iter().any(to));
            let (what, cancels) = if transactions {
                ("transactions", " (a throttled item cancels the whole transaction)")
            } else {
                ("requests' follow-up writes", " (retried on their own after the read was served)")
            };
            let kind = if c.resource.kind() == ResourceKind::Gsi { "GSI" } else { "table" };
            let resource = format!("{} ({kind})", other.resource_name(c.resource));
            let events = match c.events {
                [0, w] => format!("{} write throttle events", grouped(w)),
                [r, 0] => format!("{} read throttle events", grouped(r)),
                [r, w] => format!("{} read and {} write throttle events", grouped(r), grouped(w)),
            };
            let v = &mut reports[i].2.summary.verdict;
            v.lines.insert(
                0,
                VerdictLine {
                    topic: Topic::Where,
                    text: format!("{resource} of table {}: {events} met by the {patterns} {what}{cancels}", other.table.name),
                },
            );
            let v = &mut reports[c.table].2.summary.verdict;
            let own = v.headline.trim_start_matches("HELD — ").trim_start_matches("DID NOT HOLD — ").to_string();
            v.held = false;
            v.headline = format!(
                "DID NOT HOLD — {events} on {resource} from the {patterns} {what} of table {}; its own requests: {own}",
                owner.table.name
            );
            v.lines.insert(
                0,
                VerdictLine {
                    topic: Topic::Why,
                    text: format!(
                        "the {patterns} {what} of table {} write items here{cancels} (see table {})",
                        owner.table.name, owner.table.name
                    ),
                },
            );
        }
    }
}

/// One table of the account.
#[derive(Debug, Serialize)]
pub struct AccountTable {
    /// The scenario file's stem: its files are `STEM-summary.json` and so on.
    pub file: String,
    /// The table's name.
    pub table: String,
    /// Its Region.
    pub region: String,
    /// It held its traffic.
    pub held: bool,
    /// The verdict's first line.
    pub headline: String,
    /// The window's cost, USD (estimate).
    pub window_usd: f64,
    /// Raises a capacity quota refused.
    pub refused_raises: u64,
}

/// The account's run.
#[derive(Serialize)]
pub struct AccountRun<'a> {
    /// Every table held.
    pub held: bool,
    /// The tables, in file order.
    pub tables: Vec<AccountTable>,
    /// The window's cost of every table, USD (estimate).
    pub window_usd: f64,
    /// What joining the tables assumed (a raised account-level quota).
    pub notes: Vec<String>,
    #[serde(skip)]
    reports: Vec<(String, RunReport<'a>)>,
}

impl<'a> AccountRun<'a> {
    /// The account of `reports`, each with its file stem and Region, and the join's `notes`.
    #[must_use]
    pub fn new(reports: Vec<(String, String, RunReport<'a>)>, notes: Vec<String>) -> Self {
        let tables: Vec<AccountTable> = reports
            .iter()
            .map(|(file, region, r)| {
                let s: &Summary = &r.summary;
                AccountTable {
                    file: file.clone(),
                    table: s.resources.first().map(|x| x.name.clone()).unwrap_or_default(),
                    region: region.clone(),
                    held: s.verdict.held,
                    headline: s.verdict.headline.clone(),
                    window_usd: s.cost.total_usd,
                    refused_raises: s.capacity_events.iter().filter(|e| e.action == CapacityAction::RefusedQuota).count() as u64,
                }
            })
            .collect();
        Self {
            held: tables.iter().all(|t| t.held),
            window_usd: tables.iter().map(|t| t.window_usd).sum(),
            tables,
            notes,
            reports: reports.into_iter().map(|(f, _, r)| (f, r)).collect(),
        }
    }
}

impl Render for AccountRun<'_> {
    fn text(&self) -> String {
        let mut o = String::new();
        let n = self.tables.len();
        let held = self.tables.iter().filter(|t| t.held).count();
        let _ = writeln!(
            o,
            "account of {n} tables — {} ({held} of {n} held); {} for the window (estimate)",
            if self.held { "HELD" } else { "DID NOT HOLD" },
            usd_window(self.window_usd)
        );
        for t in &self.tables {
            let refused = match t.refused_raises {
                0 => String::new(),
                1 => "; 1 raise refused by a quota".to_string(),
                n => format!("; {} raises refused by a quota", grouped(n)),
            };
            let _ = writeln!(o, "  {} ({}, {}): {}; {}{refused}", t.table, t.region, t.file, t.headline, usd_window(t.window_usd));
        }
        for note in &self.notes {
            let _ = writeln!(o, "{note}");
        }
        for (file, r) in &self.reports {
            let _ = writeln!(o, "\n── {file}");
            o.push_str(&r.text());
        }
        o
    }

    fn artifacts(&self) -> Result<Vec<Artifact<'_>>, ReportError> {
        let mut out = vec![Artifact::new("account.json", json(self))];
        for (file, r) in &self.reports {
            for mut a in r.artifacts()? {
                // The data files; a table's charts are drawn by `ddbsim plot` on a run of it alone.
                if a.name.ends_with(".json") || a.name.ends_with(".csv") {
                    a.name = format!("{file}-{}", a.name);
                    out.push(a);
                }
            }
        }
        Ok(out)
    }
}
