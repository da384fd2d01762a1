//! What `sweep` and `shards` show and write: terminal tables, long-form CSV, JSON and charts.

use super::chart_data::{SweepAxis, SweepLine};
use super::plot;
use super::verdict::DEFAULT_MAX_THROTTLE;
use super::{json, Artifact, Render, ReportError};
use crate::format::percent;
use crate::scenario::Window;
use crate::stats::Stat;
use crate::study::{CostBasis, ShardsOutput, SweepOutput};
use serde::Serialize;
use std::fmt::Write as _;

impl SweepOutput {
    /// The chart's x axis: the first swept key's values (log2 for doubling ranges, one slot per
    /// value for words).
    #[must_use]
    pub fn chart_axis(&self) -> SweepAxis {
        let name = self.sets.first().map_or("point", |s| s.path.as_str());
        let values: Vec<String> =
            self.points.iter().map(|p| p.params.first().map_or_else(|| p.index.to_string(), |(_, v)| v.clone())).collect();
        SweepAxis::of(name, &values)
    }

    /// Lines of the sweep chart: `metric` of each point against the first axis (at
    /// `axis` positions), one line per combination of the other axes.
    #[must_use]
    pub fn chart_lines(&self, axis: &SweepAxis, metric: fn(&crate::study::HeadlineStats) -> (f64, f64, f64), name: &str) -> Vec<SweepLine> {
        let mut lines: Vec<SweepLine> = Vec::new();
        for p in &self.points {
            let x = axis.position(&p.params.first().map_or_else(|| p.index.to_string(), |(_, v)| v.clone()));
            let label = if p.params.len() > 1 {
                p.params[1..].iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
            } else {
                name.to_string()
            };
            let (mean, lo, hi) = metric(&p.stats);
            let pt = (x, mean, lo, hi);
            match lines.iter_mut().find(|l| l.0 == label) {
                Some(l) => l.1.push(pt),
                None => lines.push((label, vec![pt])),
            }
        }
        for l in &mut lines {
            l.1.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        lines
    }

    /// The point to mark: with one swept key, the cheapest point whose mean throttled share is
    /// within `limit` (its first value) and, in a sustained window, that spent no burst credit
    /// or GSI absorption on net in any replication.
    #[must_use]
    pub fn cheapest_within(&self, limit: f64) -> Option<&crate::study::PointOut> {
        if self.sets.len() != 1 {
            return None;
        }
        self.points
            .iter()
            .filter(|p| p.stats.throttled_share.mean <= limit)
            .filter(|p| self.window == Window::Event || p.stats.spent_credit_share == 0.0)
            .min_by(|a, b| a.stats.monthly_usd.mean.total_cmp(&b.stats.monthly_usd.mean).then(a.index.cmp(&b.index)))
    }

    /// `sweep.csv`, `sweep-summary.csv` and `sweep.json`: what `merge` combines.
    #[must_use]
    pub fn data(&self) -> Vec<Artifact<'static>> {
        vec![
            Artifact::new("sweep.csv", self.csv()),
            Artifact::new("sweep-summary.csv", self.summary_csv()),
            Artifact::new("sweep.json", json(self)),
        ]
    }

    /// The swept keys, in `--set` order (the column names of both CSV files).
    fn keys(&self) -> Vec<String> {
        match self.points.first() {
            Some(p) => p.params.iter().map(|(k, _)| k.clone()).collect(),
            None => self.sets.iter().map(|s| s.path.clone()).collect(),
        }
    }

    /// `sweep.csv`, long (tidy) form like `timeseries.csv`: one row per point, replication or
    /// statistic, and metric — `point`, a column per swept key with its value, `replication`
    /// (empty on statistics), `stat` (`run`, `mean`, `sd`, `ci95_low`, `ci95_high`, `p50`, `p95`,
    /// `p99`), `metric` (`throttled_share`, `failed_share`, `failed`, `monthly_usd`,
    /// `window_usd`, `p99_latency_ms`, `spent_credit`: 1 when the run ended with less burst credit or more GSI debt than it began with) and `value`.
    #[must_use]
    pub fn csv(&self) -> Vec<u8> {
        let keys = self.keys();
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut header = vec!["point".to_string()];
        header.extend(keys.iter().cloned());
        header.extend(["replication", "stat", "metric", "value"].map(String::from));
        w.write_record(&header).expect("CSV into memory");
        let metrics = |h: &crate::study::Headline| {
            [
                ("throttled_share", h.throttled_share),
                ("failed_share", h.failed_share),
                ("failed", h.failed as f64),
                ("monthly_usd", h.monthly_usd),
                ("window_usd", h.window_usd),
                ("p99_latency_ms", h.p99_latency_ms),
                ("spent_credit", f64::from(u8::from(h.spent_credit))),
            ]
        };
        for p in &self.points {
            let mut lead = vec![p.index.to_string()];
            lead.extend(p.params.iter().map(|(_, v)| v.clone()));
            let mut row = |rep: String, stat: &str, metric: &str, value: f64| {
                let mut r = lead.clone();
                r.extend([rep, stat.to_string(), metric.to_string(), value.to_string()]);
                w.write_record(&r).expect("CSV into memory");
            };
            for (r, h) in p.runs.iter().enumerate() {
                for (m, v) in metrics(h) {
                    row(r.to_string(), "run", m, v);
                }
            }
            let s = &p.stats;
            for (stat, pick) in STATS {
                for (m, x) in [
                    ("throttled_share", &s.throttled_share),
                    ("failed_share", &s.failed_share),
                    ("failed", &s.failed),
                    ("monthly_usd", &s.monthly_usd),
                    ("window_usd", &s.window_usd),
                    ("p99_latency_ms", &s.p99_latency_ms),
                ] {
                    row(String::new(), stat, m, pick(x));
                }
            }
        }
        w.into_inner().expect("CSV into memory")
    }

    /// `sweep-summary.csv`, wide: one row per point — its swept values, then each metric's mean
    /// and 95 % confidence bounds over the replications (and the throttled share's P95).
    #[must_use]
    pub fn summary_csv(&self) -> Vec<u8> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut header = vec!["point".to_string()];
        header.extend(self.keys());
        for m in ["throttled_share", "failed_share", "monthly_usd", "window_usd", "p99_latency_ms"] {
            header.extend(["mean", "ci95_low", "ci95_high"].map(|s| format!("{m}_{s}")));
        }
        header.extend(["throttled_share_p95".to_string(), "replications".to_string(), "spent_credit_share".to_string()]);
        w.write_record(&header).expect("CSV into memory");
        for p in &self.points {
            let s = &p.stats;
            let mut r = vec![p.index.to_string()];
            r.extend(p.params.iter().map(|(_, v)| v.clone()));
            for x in [&s.throttled_share, &s.failed_share, &s.monthly_usd, &s.window_usd, &s.p99_latency_ms] {
                r.extend([x.mean, x.ci95_low, x.ci95_high].map(|v| v.to_string()));
            }
            r.extend([s.throttled_share.p95.to_string(), p.runs.len().to_string(), s.spent_credit_share.to_string()]);
            w.write_record(&r).expect("CSV into memory");
        }
        w.into_inner().expect("CSV into memory")
    }
}

/// A statistic's name and how to read it.
type StatPick = (&'static str, fn(&Stat) -> f64);

/// The statistics over replications `sweep.csv` writes, in order.
const STATS: [StatPick; 7] = [
    ("mean", |x| x.mean),
    ("sd", |x| x.sd),
    ("ci95_low", |x| x.ci95_low),
    ("ci95_high", |x| x.ci95_high),
    ("p50", |x| x.p50),
    ("p95", |x| x.p95),
    ("p99", |x| x.p99),
];

impl Render for SweepOutput {
    fn text(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(
            o,
            "ddbsim sweep · {} · seed {} · {} replications per point · {} of {} points",
            self.scenario,
            self.seed,
            self.replications,
            self.points.len(),
            self.total_points
        );
        for p in &self.points {
            let params = p.params.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ");
            let s = &p.stats;
            let _ = writeln!(
                o,
                "  {params:<40} throttled {:.3}% (95% CI {:.3}–{:.3}%, P95 {:.3}%) · ${:.2}{} · p99 {:.1} ms",
                s.throttled_share.mean * 100.0,
                s.throttled_share.ci95_low * 100.0,
                s.throttled_share.ci95_high * 100.0,
                s.throttled_share.p95 * 100.0,
                s.cost().0.mean,
                s.cost().1.suffix(),
                s.p99_latency_ms.mean
            );
            if s.spent_credit_share > 0.0 {
                let _ = writeln!(
                    o,
                    "  {:<40} spent credit: {:.0} % of replications ended with less burst credit or more GSI debt than they began with",
                    "",
                    s.spent_credit_share * 100.0
                );
            }
        }
        o
    }

    fn artifacts(&self) -> Result<Vec<Artifact<'_>>, ReportError> {
        let axis = self.chart_axis();
        let thr = self.chart_lines(
            &axis,
            |p| (p.throttled_share.mean * 100.0, p.throttled_share.ci95_low * 100.0, p.throttled_share.ci95_high * 100.0),
            "throttled share of attempts",
        );
        let basis = self.points.first().map_or(CostBasis::Month, |p| p.stats.cost().1);
        let usd = self.chart_lines(
            &axis,
            |p| {
                let c = p.cost().0;
                (c.mean, c.ci95_low, c.ci95_high)
            },
            if basis == CostBasis::Month { "monthly cost" } else { "cost of the window" },
        );
        let limit = DEFAULT_MAX_THROTTLE;
        let label = format!("limit {} (the default of compare and recommend)", percent(limit));
        let pick = self.cheapest_within(limit).map(|p| {
            let v = p.params.first().map_or_else(|| p.index.to_string(), |(_, v)| v.clone());
            (axis.position(&v), format!("cheapest within the limit: {v}"))
        });
        let (svg, png) = crate::draw_chart!(2 * plot::PANEL_HEIGHT + 100, "sweep", |root| {
            let areas = root.split_evenly((2, 1));
            plot::sweep(
                &areas[0],
                &axis,
                "throttled % of attempts",
                &thr,
                Some((limit * 100.0, &label)),
                pick.as_ref().map(|(x, l)| (*x, l.as_str())),
            )?;
            plot::sweep(&areas[1], &axis, basis.axis(), &usd, None, pick.as_ref().map(|(x, l)| (*x, l.as_str())))
        })?;
        let mut out = self.data();
        out.extend([Artifact::new("sweep.svg", svg), Artifact::new("sweep.png", png)]);
        Ok(out)
    }
}

impl ShardsOutput {
    /// The explorer's chart: throttled share (percent, with its 95 % band) and monthly cost
    /// against the shard count, as SVG and PNG.
    fn chart(&self) -> Result<(String, Vec<u8>), plot::ChartError> {
        let counts: Vec<String> = self.rows.iter().map(|r| r.count.to_string()).collect();
        let axis = SweepAxis::of("shards", &counts);
        let x = |c: u64| axis.position(&c.to_string());
        let thr: Vec<SweepLine> = vec![(
            format!("throttled share of attempts (band: 95 % CI; judged at P{})", self.percentile),
            self.rows
                .iter()
                .map(|r| {
                    (x(r.count), r.throttled_share.mean * 100.0, r.throttled_share.ci95_low * 100.0, r.throttled_share.ci95_high * 100.0)
                })
                .collect(),
        )];
        let basis = CostBasis::of(self.extrapolated);
        let cost: Vec<SweepLine> = vec![(
            if self.extrapolated { "monthly cost" } else { "cost of the window" }.to_string(),
            self.rows.iter().map(|r| (x(r.count), r.cost(), r.cost(), r.cost())).collect(),
        )];
        let label = format!("limit {}", percent(self.max_throttle));
        let pick = self.recommended.map(|c| (x(c), format!("recommended: {c} shards")));
        crate::draw_chart!(2 * plot::PANEL_HEIGHT + 100, "shards", |root| {
            let areas = root.split_evenly((2, 1));
            plot::sweep(
                &areas[0],
                &axis,
                "throttled %",
                &thr,
                Some((self.max_throttle * 100.0, &label)),
                pick.as_ref().map(|(x, l)| (*x, l.as_str())),
            )?;
            plot::sweep(&areas[1], &axis, basis.axis(), &cost, None, pick.as_ref().map(|(x, l)| (*x, l.as_str())))
        })
    }

    /// `shards.csv`.
    fn csv(&self) -> Vec<u8> {
        #[derive(Serialize)]
        struct Row {
            shards: u64,
            throttled_share_mean: f64,
            throttled_share_p50: f64,
            throttled_share_p95: f64,
            throttled_share_p99: f64,
            read_fan_out: u64,
            read_units_per_s: f64,
            monthly_usd: f64,
            window_usd: f64,
            spent_credit_share: f64,
            recommended: bool,
        }
        let mut w = csv::Writer::from_writer(Vec::new());
        for r in &self.rows {
            w.serialize(Row {
                shards: r.count,
                throttled_share_mean: r.throttled_share.mean,
                throttled_share_p50: r.throttled_share.p50,
                throttled_share_p95: r.throttled_share.p95,
                throttled_share_p99: r.throttled_share.p99,
                read_fan_out: r.read_fan_out,
                read_units_per_s: r.read_units_per_s,
                monthly_usd: r.monthly_usd,
                window_usd: r.window_usd,
                spent_credit_share: r.spent_credit_share,
                recommended: self.recommended == Some(r.count),
            })
            .expect("CSV into memory");
        }
        w.into_inner().expect("CSV into memory")
    }
}

impl Render for ShardsOutput {
    fn text(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(
            o,
            "ddbsim shards · {} · key {} ({} suffix) · {} replications · judged at P{}",
            self.scenario, self.key, self.by, self.replications, self.percentile
        );
        let _ = writeln!(
            o,
            "{:>7}  {:>12}  {:>12}  {:>12}  {:>9}  {:>12}  {:>10}",
            "shards",
            "thr mean",
            "thr P50",
            "thr P95",
            "fan-out",
            "read RU/s",
            CostBasis::of(self.extrapolated).column()
        );
        for r in &self.rows {
            let mark = if self.recommended == Some(r.count) {
                " *"
            } else if r.spent_credit_share > 0.0 {
                " (credit)"
            } else {
                ""
            };
            let _ = writeln!(
                o,
                "{:>7}  {:>11.3}%  {:>11.3}%  {:>11.3}%  {:>9}  {:>12.1}  {:>10.2}{mark}",
                r.count,
                r.throttled_share.mean * 100.0,
                r.throttled_share.p50 * 100.0,
                r.throttled_share.p95 * 100.0,
                r.read_fan_out,
                r.read_units_per_s,
                r.cost()
            );
        }
        match self.recommended {
            Some(c) => {
                let _ = writeln!(
                    o,
                    "recommended: {c} shards — the fewest whose throttled share at P{} stays within {:.3}%",
                    self.percentile,
                    self.max_throttle * 100.0
                );
            }
            None => {
                let _ = writeln!(
                    o,
                    "recommended: none up to {} shards keeps throttling within {:.3}% at P{}",
                    self.rows.last().map_or(0, |r| r.count),
                    self.max_throttle * 100.0,
                    self.percentile
                );
            }
        }
        let credit: Vec<String> = self.rows.iter().filter(|r| r.spent_credit_share > 0.0).map(|r| r.count.to_string()).collect();
        if !credit.is_empty() {
            let then = if self.window == Window::Event {
                "the window is an event from a rested table, so they may"
            } else {
                "the same load past the window throttles, so none of them is recommended ([scenario] window = \"event\" if the window is a one-off)"
            };
            let _ = writeln!(
                o,
                "(credit): {} shards end the window with less burst credit or more GSI debt than they began with (in some replication); {then}",
                credit.join(", ")
            );
        }
        o
    }

    fn artifacts(&self) -> Result<Vec<Artifact<'_>>, ReportError> {
        let (svg, png) = self.chart()?;
        Ok(vec![
            Artifact::new("shards.csv", self.csv()),
            Artifact::new("shards.json", json(self)),
            Artifact::new("shards.svg", svg),
            Artifact::new("shards.png", png),
        ])
    }
}
