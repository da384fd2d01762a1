//! The terminal's text: aligned tables, and the summary printed after a run.

use super::summary::Summary;
use crate::cost::BillComponent;
use crate::engine::CapacityEvent;
use crate::model::{CapacityAction, CapacityMode};
use std::fmt::Write as _;

/// One line of a bill as the terminal prints it: `Orders writes: 500 WCU x 1.000 h x $0.00065
/// = $0.3250 (price unverified)`; a credit reads `-$0.5682`, and a Savings Plan's lines say
/// their discount is an assumption.
#[must_use]
pub fn bill_line(l: &crate::cost::BillLine) -> String {
    let sign = if l.cost_usd < 0.0 { "-" } else { "" };
    let flag = match l.component {
        BillComponent::SavingsPlanCommitment | BillComponent::SavingsPlanCovered => " (discount assumed)",
        _ if l.unverified => " (price unverified)",
        _ => "",
    };
    format!("{} {}: {} = {sign}{}{flag}", l.resource, l.component.name(), l.arithmetic, crate::format::usd4(l.cost_usd.abs()))
}

impl Summary {
    /// The aligned table printed after a run.
    #[must_use]
    pub fn to_table(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(
            o,
            "ddbsim {} · {} · seed {} · {} fidelity · {} s simulated",
            self.ddbsim_version, self.scenario, self.seed, self.fidelity, self.duration_s
        );
        let _ = writeln!(o);
        o.push_str(&self.verdict.to_text());
        for n in &self.scenario_notes {
            let _ = writeln!(o, "rests on: {n}");
        }
        let _ = writeln!(o);
        self.patterns_table(&mut o);
        let _ = writeln!(o);
        self.resources_table(&mut o);
        let _ = writeln!(o);
        self.totals_text(&mut o);
        self.cost_text(&mut o);
        self.events_text(&mut o);
        o
    }

    /// Requests by pattern, and each closed loop's progress.
    fn patterns_table(&self, o: &mut String) {
        let pct = |x: f64| format!("{:.3}%", x * 100.0);
        let rows: Vec<[String; 8]> = std::iter::once([
            "pattern".into(),
            "op".into(),
            "offered".into(),
            "served".into(),
            "throttled req".into(),
            "failed".into(),
            "throttled att %".into(),
            "p99 ms".into(),
        ])
        .chain(self.patterns.iter().map(|p| {
            [
                p.name.clone(),
                p.op.to_string(),
                p.requests.offered.to_string(),
                p.requests.served.to_string(),
                p.requests.throttled_requests.to_string(),
                p.requests.failed.to_string(),
                pct(p.requests.throttled_attempt_share),
                p.latency_ms.as_ref().map_or_else(|| "-".to_string(), |l| format!("{:.1}", l.p99)),
            ]
        }))
        .collect();
        o.push_str(&align(&rows));
        for p in &self.patterns {
            if let Some(c) = &p.closed_loop {
                let _ = writeln!(o, "  {}: {}", p.name, c.describe(self.duration_s));
            }
            if let Some(b) = &p.bulk_put {
                let _ = writeln!(o, "  {}: {}", p.name, b.describe());
            }
        }
    }

    /// The table and its indexes, and their throttle reasons.
    fn resources_table(&self, o: &mut String) {
        let rows: Vec<[String; 7]> = std::iter::once([
            "resource".into(),
            "mode".into(),
            "partitions".into(),
            "consumed RCU".into(),
            "consumed WCU".into(),
            "read thr ev".into(),
            "write thr ev".into(),
        ])
        .chain(self.resources.iter().map(|r| {
            let mode = if r.mode == CapacityMode::Provisioned {
                format!("prov {}/{}", r.provisioned_rcu, r.provisioned_wcu)
            } else {
                "on-demand".to_string()
            };
            [
                format!("{} ({})", r.name, r.kind.word()),
                mode,
                r.partitions.to_string(),
                format!("{:.1}", r.consumed_rcu),
                format!("{:.1}", r.consumed_wcu),
                r.read_throttle_events.to_string(),
                r.write_throttle_events.to_string(),
            ]
        }))
        .collect();
        o.push_str(&align(&rows));
        for r in &self.resources {
            for (reason, n) in &r.throttle_events_by_reason {
                let _ = writeln!(o, "  {}: {reason} × {n}", r.name);
            }
        }
    }

    /// Latency, the run's totals, failed conditions, clients, DAX and replication.
    fn totals_text(&self, o: &mut String) {
        let pct = |x: f64| format!("{:.3}%", x * 100.0);
        let l = &self.latency_ms;
        let _ = writeln!(
            o,
            "latency of served requests (ms): p50 {:.1} · p90 {:.1} · p99 {:.1} · p99.9 {:.1} · max {:.1}",
            l.p50, l.p90, l.p99, l.p999, l.max
        );
        let t = &self.requests;
        let _ = writeln!(
            o,
            "requests: {} offered · {} served · {} failed · {} still retrying · {} of {} attempts throttled ({})",
            t.offered,
            t.served,
            t.failed,
            t.pending_at_end,
            t.throttled_attempts,
            t.attempts,
            pct(t.throttled_attempt_share)
        );
        let conditions: u64 = self.patterns.iter().map(|p| p.condition_failed).sum();
        if conditions > 0 {
            let _ = writeln!(
                o,
                "conditions: {conditions} served writes failed their condition (ConditionalCheckFailedRequests): each consumed its write units on the table and wrote nothing"
            );
        }
        let _ = writeln!(o, "clients: {}", self.client.describe());
        if let Some(d) = &self.dax {
            let _ = writeln!(o, "{}", super::summary::describe_dax(d));
        }
        for r in &self.resources {
            if let Some(rep) = &r.replica {
                let _ = writeln!(o, "{}", rep.describe(&r.name));
            }
        }
    }

    /// The bill, line by line.
    fn cost_text(&self, o: &mut String) {
        let c = &self.cost;
        let extrapolation = match (c.monthly_usd, c.yearly_usd) {
            (Some(m), Some(y)) => {
                format!("extrapolated, if the window repeats: {} a month (730 h), {} a year", crate::format::usd(m), crate::format::usd(y))
            }
            _ => "not extrapolated to a month ([pricing] extrapolate = \"none\", the default below a day)".to_string(),
        };
        let _ = writeln!(
            o,
            "cost ({}): {} for the {:.2} h simulated; {extrapolation}",
            self.prices,
            crate::format::usd_window(c.total_usd),
            c.window_hours
        );
        for l in c.lines.iter().filter(|l| l.cost_usd != 0.0) {
            let _ = writeln!(o, "  {}", bill_line(l));
        }
        let unused: Vec<String> = ["RCU", "WCU"]
            .iter()
            .zip(c.reserved_unused_share)
            .filter_map(|(label, s)| s.map(|s| format!("{} of the reserved {label}-hours", crate::format::percent(s))))
            .collect();
        if !unused.is_empty() {
            let _ = writeln!(o, "  reserved capacity unused: {} (no provisioned capacity to cover)", unused.join(", "));
        }
    }

    /// The first capacity events.
    fn events_text(&self, o: &mut String) {
        let shown: Vec<&CapacityEvent> = self.capacity_events.iter().filter(|e| e.action != CapacityAction::PartitionsAdded).collect();
        if !shown.is_empty() {
            let _ = writeln!(o, "capacity events ({}: {}):", shown.len(), super::verdict::event_counts(shown.iter().copied()));
            for e in shown.iter().take(12) {
                let dim = e.dimension.map_or(String::new(), |d| format!(" {}", d.name()));
                let change = if e.old == e.new { String::new() } else { format!(" {} -> {}", e.old, e.new) };
                let detail = if e.detail.is_empty() { String::new() } else { format!(" ({})", e.detail) };
                let _ = writeln!(o, "  {:>6} s  {} {}{dim}{change}{detail}", e.time_s, e.resource, e.action.name());
            }
            if shown.len() > 12 {
                let _ = writeln!(o, "  … {} more in summary.json", shown.len() - 12);
            }
        }
    }
}

/// Left-aligns the first column and right-aligns the others.
pub(crate) fn align<R: AsRef<[String]>>(rows: &[R]) -> String {
    let mut widths: Vec<usize> = Vec::new();
    for r in rows {
        for (i, c) in r.as_ref().iter().enumerate() {
            if widths.len() <= i {
                widths.push(0);
            }
            widths[i] = widths[i].max(c.chars().count());
        }
    }
    let mut o = String::new();
    for r in rows {
        for (i, c) in r.as_ref().iter().enumerate() {
            let pad = widths[i] - c.chars().count();
            if i == 0 {
                o.push_str(c);
                o.push_str(&" ".repeat(pad));
            } else {
                o.push_str("  ");
                o.push_str(&" ".repeat(pad));
                o.push_str(c);
            }
        }
        o.push('\n');
    }
    o
}
