//! What `compare` shows and writes: the terminal table with the pick's arithmetic,
//! `compare.csv`, `compare.json`, the cost chart, and the statistics over replications.

use super::chart_data::CostBar;
use super::plot;
use super::text::align;
use super::{json, Artifact, Render, ReportError};
use crate::cost::{CostGroup, HOURS_PER_MONTH};
use crate::scenario::Window;
use crate::study::sustain::span;
use crate::study::{Comparison, ReplicatedComparison};
use serde::Serialize;
use std::fmt::Write as _;

/// One row of `compare.csv`.
#[derive(Debug, Serialize)]
struct CsvRow<'a> {
    mode: String,
    window_usd: f64,
    monthly_usd: Option<f64>,
    upfront_usd: f64,
    usd_per_million_requests: f64,
    offered_requests: u64,
    throttled_attempts: u64,
    throttled_attempt_share: f64,
    failed_requests: u64,
    p99_latency_ms: f64,
    /// No burst credit or GSI absorption spent on net.
    sustained: bool,
    picked: bool,
    description: &'a str,
}

fn cents(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

impl Comparison {
    fn picked(&self, mode: &crate::study::CompareMode) -> bool {
        self.pick.as_ref() == Some(mode)
    }

    /// The bars of the cost chart: USD by component (table reads, writes, storage, reserved
    /// fees, everything billed to GSIs as "indexes" and to replicas as "replicas"), a month's extrapolation when the
    /// window repeats, else the window's own.
    #[must_use]
    pub fn cost_bars(&self) -> Vec<CostBar> {
        self.rows
            .iter()
            .map(|r| {
                // The window's own dollars for an event, else a month's.
                let scale = match r.bill.window_hours {
                    _ if !self.extrapolated => 1.0,
                    h if h > 0.0 => HOURS_PER_MONTH / h,
                    _ => 0.0,
                };
                let table = r.bill.lines.first().map(|l| l.resource.clone()).unwrap_or_default();
                let mut parts: Vec<(CostGroup, f64)> = Vec::new();
                for l in &r.bill.lines {
                    let group = CostGroup::of_line(l, &table);
                    match parts.iter_mut().find(|p| p.0 == group) {
                        Some(p) => p.1 += l.cost_usd * scale,
                        None => parts.push((group, l.cost_usd * scale)),
                    }
                }
                // A Savings Plan that saves money (commitment below the list price it covered)
                // is drawn as smaller parts, scaled to the bill's total, not as a negative bar.
                if let Some(i) = parts.iter().position(|p| p.0 == CostGroup::SavingsPlan && p.1 < 0.0) {
                    let saving = parts.remove(i).1;
                    let gross: f64 = parts.iter().map(|p| p.1).sum();
                    let keep = if gross > 0.0 { ((gross + saving) / gross).max(0.0) } else { 0.0 };
                    for p in &mut parts {
                        p.1 *= keep;
                    }
                }
                parts.sort_by_key(|p| p.0);
                CostBar { mode: r.mode.to_string(), parts, throttled_share: r.throttled_attempt_share, picked: self.picked(&r.mode) }
            })
            .collect()
    }

    fn csv(&self) -> Vec<u8> {
        let mut w = csv::Writer::from_writer(Vec::new());
        for r in &self.rows {
            w.serialize(CsvRow {
                mode: r.mode.to_string(),
                window_usd: (r.window_usd * 1e4).round() / 1e4,
                monthly_usd: r.monthly_usd.map(cents),
                upfront_usd: cents(r.upfront_usd),
                usd_per_million_requests: (r.usd_per_million_requests * 1e4).round() / 1e4,
                offered_requests: r.offered_requests,
                throttled_attempts: r.throttled_attempts,
                throttled_attempt_share: (r.throttled_attempt_share * 1e6).round() / 1e6,
                failed_requests: r.failed_requests,
                p99_latency_ms: r.p99_latency_ms,
                sustained: r.sustained,
                picked: self.picked(&r.mode),
                description: &r.description,
            })
            .expect("CSV row into memory");
        }
        w.into_inner().expect("CSV into memory")
    }
}

impl Render for Comparison {
    fn text(&self) -> String {
        let mut o = String::new();
        let window = crate::format::window(self.duration_s);
        let costs = if self.extrapolated {
            format!("costs of the {window} window, extrapolated to a 730-hour month")
        } else {
            format!("costs of the {window} window, not extrapolated")
        };
        let _ = writeln!(
            o,
            "ddbsim compare · {} · seed {} · {} s simulated, {costs} · {}",
            self.scenario, self.seed, self.duration_s, self.prices
        );
        let _ = writeln!(o);
        let mut header = vec!["mode".to_string(), "window $".into()];
        if self.extrapolated {
            header.extend(["$/month (est.)".to_string(), "upfront $".into()]);
        }
        header.extend(["$/M req".to_string(), "throttled".into(), "failed".into(), "p99 ms".into(), "holds".into()]);
        let mut rows = vec![header];
        for r in &self.rows {
            let mark = if self.picked(&r.mode) { " *" } else { "" };
            let mut row = vec![format!("{}{mark}", r.mode), format!("{:.4}", r.window_usd)];
            if let Some(m) = r.monthly_usd {
                row.extend([format!("{m:.2}"), format!("{:.2}", r.upfront_usd)]);
            }
            row.extend([
                format!("{:.4}", r.usd_per_million_requests),
                format!("{:.3}%", r.throttled_attempt_share * 100.0),
                r.failed_requests.to_string(),
                format!("{:.1}", r.p99_latency_ms),
                r.on_credit.as_ref().map_or_else(|| "sustained".to_string(), |c| format!("on credit, {} more", span(c.lasts_s))),
            ]);
            rows.push(row);
        }
        o.push_str(&align(&rows));
        let _ = writeln!(o);
        for r in self.rows.iter().filter(|r| r.throttled_attempt_share <= self.max_throttle) {
            if let Some(c) = &r.on_credit {
                let then = if self.window == Window::Event {
                    "the window is an event from a rested table, so it may"
                } else {
                    "not a pick for a sustained window ([scenario] window)"
                };
                let _ = writeln!(o, "{} holds only on credit: {}; {then}", r.mode, c.describe());
            }
        }
        match &self.pick {
            Some(p) => {
                let sustained = if self.window == Window::Sustained { " and holds sustained" } else { "" };
                let _ = writeln!(
                    o,
                    "pick: {p} — the cheapest mode that throttles at most {:.3}% of attempts{sustained}",
                    self.max_throttle * 100.0
                );
                if let Some(r) = self.rows.iter().find(|r| &r.mode == p) {
                    let _ = writeln!(o, "  {}", r.description);
                    for l in r.bill.lines.iter().filter(|l| l.cost_usd != 0.0) {
                        let _ = writeln!(o, "  {}", super::text::bill_line(l));
                    }
                    match r.monthly_usd {
                        Some(m) => {
                            let _ = writeln!(
                                o,
                                "  window {}; if it repeats, x 730 h / {:.3} h = {} a month (extrapolated)",
                                crate::format::usd4(r.bill.total_usd),
                                r.bill.window_hours,
                                crate::format::usd(m)
                            );
                        }
                        None => {
                            let _ = writeln!(o, "  window {} over {:.3} h", crate::format::usd4(r.bill.total_usd), r.bill.window_hours);
                        }
                    }
                }
            }
            None => {
                let _ = writeln!(
                    o,
                    "pick: none — every mode throttles more than {:.3}% of attempts or holds only on credit (raise --max-throttle or capacity)",
                    self.max_throttle * 100.0
                );
            }
        }
        if !self.extrapolated {
            let _ = writeln!(
                o,
                "costs are the window's own ([pricing] extrapolate = \"none\", the default below a day), and reserved capacity, \
                 a year's commitment, is not priced from it; set extrapolate = \"repeat\" if this traffic is every day's"
            );
        }
        let _ = writeln!(
            o,
            "break-even: provisioned is cheaper than on-demand above {:.1}% average utilization (reads {:.1}%, writes {:.1}%)",
            self.break_even_utilization[1] * 100.0,
            self.break_even_utilization[0] * 100.0,
            self.break_even_utilization[1] * 100.0
        );
        if !self.unverified_prices.is_empty() {
            let _ = writeln!(o, "unverified prices (third-party or tooling sources): {}", self.unverified_prices.join(", "));
        }
        o
    }

    fn artifacts(&self) -> Result<Vec<Artifact<'_>>, ReportError> {
        let bars = self.cost_bars();
        let unit = if self.extrapolated {
            "USD per month (estimate)".to_string()
        } else {
            format!("USD over the {} window", crate::format::window(self.duration_s))
        };
        let (svg, png) = crate::draw_chart!(plot::PANEL_HEIGHT + 200, "cost", |root| plot::cost(root, &bars, self.max_throttle, &unit))?;
        Ok(vec![
            Artifact::new("compare.csv", self.csv()),
            Artifact::new("compare.json", json(self)),
            Artifact::new("cost.svg", svg),
            Artifact::new("cost.png", png),
        ])
    }
}

impl Render for ReplicatedComparison {
    fn text(&self) -> String {
        let mut o = format!("{} replications (mean, 95% CI):\n", self.replications);
        for m in &self.modes {
            let mark = if self.pick.as_ref() == Some(&m.mode) { " *" } else { "" };
            let (cost, what) = match &m.monthly_usd {
                Some(s) => (s, "/month"),
                None => (&m.window_usd, " window"),
            };
            let _ = writeln!(
                o,
                "  {:<30} ${:>10.2}{what} ({:.2}–{:.2})  throttled {:.3}% (P95 {:.3}%, P99 {:.3}%)",
                format!("{}{mark}", m.mode),
                cost.mean,
                cost.ci95_low,
                cost.ci95_high,
                m.throttled_attempt_share.mean * 100.0,
                m.throttled_attempt_share.p95 * 100.0,
                m.throttled_attempt_share.p99 * 100.0
            );
        }
        let _ = writeln!(o, "pick over replications: {}", self.pick.as_ref().map_or_else(|| "none".to_string(), ToString::to_string));
        o
    }

    fn artifacts(&self) -> Result<Vec<Artifact<'_>>, ReportError> {
        Ok(vec![Artifact::new("compare-replications.json", json(self))])
    }
}
