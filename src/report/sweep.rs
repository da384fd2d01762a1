//! What `sweep` and `shards` show and write: terminal tables, long-form CSV, JSON and charts.

use super::plot::{self, SweepLine};
use super::tables::to_csv;
use super::{json, Artifact, Render, ReportError};
use crate::stats::Stat;
use crate::study::{ShardsOutput, SweepOutput};
use serde::Serialize;
use std::fmt::Write as _;

#[derive(Serialize)]
struct CsvRow<'a> {
    point: usize,
    replication: String,
    stat: &'a str,
    params: String,
    throttled_share: f64,
    failed_share: f64,
    failed: f64,
    monthly_usd: f64,
    p99_latency_ms: f64,
}

impl SweepOutput {
    /// Lines of the sweep chart: throttled share (percent) against the first axis, one line per
    /// combination of the other axes.
    #[must_use]
    pub fn chart_lines(&self) -> Vec<SweepLine> {
        let mut lines: Vec<SweepLine> = Vec::new();
        for p in &self.points {
            let x = p.params.first().map_or(p.index as f64, |(_, v)| v.parse::<f64>().unwrap_or(p.index as f64));
            let label = if p.params.len() > 1 {
                p.params[1..].iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
            } else {
                "throttled share".to_string()
            };
            let s = &p.stats.throttled_share;
            let pt = (x, s.mean * 100.0, s.ci95_low * 100.0, s.ci95_high * 100.0);
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

    /// `sweep.csv` and `sweep.json`: what `merge` combines.
    #[must_use]
    pub fn data(&self) -> Vec<Artifact<'static>> {
        vec![Artifact::new("sweep.csv", self.csv()), Artifact::new("sweep.json", json(self))]
    }

    /// `sweep.csv`: a row per point and replication (`stat = run`), then rows per point with
    /// the mean, sd, 95 % CI bounds and P50/P95/P99 over replications.
    #[must_use]
    pub fn csv(&self) -> Vec<u8> {
        let mut rows = Vec::new();
        for p in &self.points {
            let params = p.params.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ");
            for (r, h) in p.runs.iter().enumerate() {
                rows.push(CsvRow {
                    point: p.index,
                    replication: r.to_string(),
                    stat: "run",
                    params: params.clone(),
                    throttled_share: h.throttled_share,
                    failed_share: h.failed_share,
                    failed: h.failed as f64,
                    monthly_usd: h.monthly_usd,
                    p99_latency_ms: h.p99_latency_ms,
                });
            }
            let s = &p.stats;
            for (stat, pick) in [
                ("mean", (|x: &Stat| x.mean) as fn(&Stat) -> f64),
                ("sd", |x| x.sd),
                ("ci95_low", |x| x.ci95_low),
                ("ci95_high", |x| x.ci95_high),
                ("p50", |x| x.p50),
                ("p95", |x| x.p95),
                ("p99", |x| x.p99),
            ] {
                rows.push(CsvRow {
                    point: p.index,
                    replication: String::new(),
                    stat,
                    params: params.clone(),
                    throttled_share: pick(&s.throttled_share),
                    failed_share: pick(&s.failed_share),
                    failed: pick(&s.failed),
                    monthly_usd: pick(&s.monthly_usd),
                    p99_latency_ms: pick(&s.p99_latency_ms),
                });
            }
        }
        // An empty share still writes the header.
        to_csv(&rows, "point,replication,stat,params,throttled_share,failed_share,failed,monthly_usd,p99_latency_ms")
    }
}

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
                "  {params:<40} throttled {:.3}% (95% CI {:.3}–{:.3}%, P95 {:.3}%) · ${:.2}/month · p99 {:.1} ms",
                s.throttled_share.mean * 100.0,
                s.throttled_share.ci95_low * 100.0,
                s.throttled_share.ci95_high * 100.0,
                s.throttled_share.p95 * 100.0,
                s.monthly_usd.mean,
                s.p99_latency_ms.mean
            );
        }
        o
    }

    fn artifacts(&self) -> Result<Vec<Artifact<'_>>, ReportError> {
        let lines = self.chart_lines();
        let x = self.sets.first().map_or("point", |s| s.path.as_str());
        let (svg, png) =
            crate::draw_chart!(plot::PANEL_HEIGHT + 200, "sweep", |root| plot::sweep(root, x, "throttled % of attempts", &lines))?;
        let mut out = self.data();
        out.extend([Artifact::new("sweep.svg", svg), Artifact::new("sweep.png", png)]);
        Ok(out)
    }
}

impl ShardsOutput {
    /// The explorer's chart: throttled share (percent, with its 95 % band) and monthly cost
    /// against the shard count, as SVG and PNG.
    fn chart(&self) -> Result<(String, Vec<u8>), plot::ChartError> {
        let thr: Vec<plot::SweepLine> = vec![(
            "throttled share of attempts".to_string(),
            self.rows
                .iter()
                .map(|r| {
                    (
                        r.count as f64,
                        r.throttled_share.mean * 100.0,
                        r.throttled_share.ci95_low * 100.0,
                        r.throttled_share.ci95_high * 100.0,
                    )
                })
                .collect(),
        )];
        let cost: Vec<plot::SweepLine> = vec![(
            "monthly cost".to_string(),
            self.rows.iter().map(|r| (r.count as f64, r.monthly_usd, r.monthly_usd, r.monthly_usd)).collect(),
        )];
        crate::draw_chart!(2 * plot::PANEL_HEIGHT + 100, "shards", |root| {
            let areas = root.split_evenly((2, 1));
            plot::sweep(&areas[0], "shards", "throttled %", &thr)?;
            plot::sweep(&areas[1], "shards", "USD per month", &cost)
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
            "shards", "thr mean", "thr P50", "thr P95", "fan-out", "read RU/s", "$/month"
        );
        for r in &self.rows {
            let mark = if self.recommended == Some(r.count) { " *" } else { "" };
            let _ = writeln!(
                o,
                "{:>7}  {:>11.3}%  {:>11.3}%  {:>11.3}%  {:>9}  {:>12.1}  {:>10.2}{mark}",
                r.count,
                r.throttled_share.mean * 100.0,
                r.throttled_share.p50 * 100.0,
                r.throttled_share.p95 * 100.0,
                r.read_fan_out,
                r.read_units_per_s,
                r.monthly_usd
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
