//! `report.html`: one self-contained page — the verdict first, then interactive charts (the
//! vendored uPlot, inlined), the hot-partition heatmap, bounded tables (the top rows and a count
//! of the rest; the full data is in the CSV and JSON files beside it), the scenario text, the
//! version and the seed. No network fetches: no external scripts, styles, fonts or images.

use super::chart_data::{CapacityPanel, Marker};
use super::plot::TimeAxis;
use super::summary::Summary;
use crate::format::{grouped, percent, usd};
use crate::model::Dim;
use serde::Serialize;
use std::fmt::Write as _;

/// The vendored charting library (uPlot 1.6.32, MIT; assets/uplot/SOURCE says where from).
pub(super) const UPLOT_JS: &str = include_str!("../../assets/uplot/uPlot.iife.min.js");
pub(super) const UPLOT_CSS: &str = include_str!("../../assets/uplot/uPlot.min.css");
/// ddbsim's chart code for the page.
const REPORT_JS: &str = include_str!("../../assets/report.js");
/// Rows a table of the page shows at most; the rest are counted.
pub const TABLE_ROWS: usize = 25;

/// Escapes text for HTML.
#[must_use]
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A number as the tables show it: whole numbers without decimals, others with four.
fn num(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        format!("{}", f as i64)
    } else {
        format!("{f:.4}")
    }
}

/// A table of at most [`TABLE_ROWS`] rows, then a line counting the rest and naming the file
/// that holds them all.
fn table(o: &mut String, headers: &[&str], rows: impl ExactSizeIterator<Item = Vec<String>>, all_in: &str) {
    let n = rows.len();
    o.push_str("<table><thead><tr>");
    for h in headers {
        let _ = write!(o, "<th>{}</th>", escape(h));
    }
    o.push_str("</tr></thead><tbody>");
    for r in rows.take(TABLE_ROWS) {
        o.push_str("<tr>");
        for c in r {
            let _ = write!(o, "<td>{c}</td>");
        }
        o.push_str("</tr>");
    }
    o.push_str("</tbody></table>");
    if n > TABLE_ROWS {
        let _ = write!(
            o,
            "<p class=\"note more\">… and {} more rows in <code>{}</code>.</p>",
            grouped((n - TABLE_ROWS) as u64),
            escape(all_in)
        );
    }
}

/// Standard base64 of `bytes` (for the heatmap image, inlined as a data URI).
#[must_use]
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut o = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16) | (u32::from(*c.get(1).unwrap_or(&0)) << 8) | u32::from(*c.get(2).unwrap_or(&0));
        for k in 0..4 {
            if k <= c.len() {
                o.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                o.push('=');
            }
        }
    }
    o
}

/// What the page's interactive charts draw.
#[derive(Debug, Default)]
pub struct Page<'a> {
    /// Capacity panels (per resource and dimension).
    pub panels: &'a [CapacityPanel],
    /// Latency points: (minute, p50, p99, max) ms.
    pub latency: &'a [(f64, f64, f64, f64)],
    /// Capacity events and `[[at]]` actions.
    pub markers: &'a [Marker],
    /// The hot-partition heatmap as PNG.
    pub heatmap_png: &'a [u8],
    /// The load-duration curves as PNG.
    pub load_duration_png: &'a [u8],
    /// Clock time of the x axis.
    pub time: Option<TimeAxis>,
}

#[derive(Serialize)]
struct PanelData {
    title: String,
    unit: &'static str,
    bucket: String,
    x: Vec<i64>,
    requested: Vec<f64>,
    provisioned: Vec<Option<f64>>,
    on_demand: Vec<Option<f64>>,
    consumed: Vec<f64>,
    throttles: Vec<f64>,
    events: Vec<Option<u32>>,
}

#[derive(Serialize)]
struct LatencyData {
    x: Vec<i64>,
    p50: Vec<Option<f64>>,
    p99: Vec<Option<f64>>,
    max: Vec<Option<f64>>,
}

#[derive(Serialize)]
struct PageData {
    panels: Vec<PanelData>,
    latency: LatencyData,
}

/// Four significant figures are plenty for a chart and keep the page small.
fn sig(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return 0.0;
    }
    let mag = 10f64.powi(3 - v.abs().log10().floor() as i32);
    (v * mag).round() / mag
}

impl Page<'_> {
    fn data(&self) -> PageData {
        let start = self.time.map_or(0, |t| t.start_unix_s);
        let unix = |m: f64| start + (m * 60.0).round() as i64;
        let panels = self
            .panels
            .iter()
            .map(|p| {
                let at = |pts: &[(f64, f64)], m: f64| pts.iter().find(|q| q.0 == m).map(|q| sig(q.1));
                let on_demand = p.on_demand();
                let dim = p.dim.name();
                let mut events = vec![None; p.minutes.len()];
                for m in self.markers.iter().filter(|m| m.on(p)) {
                    let i = p.minutes.partition_point(|x| *x <= m.minute).saturating_sub(1);
                    if let Some(e) = events.get_mut(i) {
                        *e = Some(e.unwrap_or(0) + 1);
                    }
                }
                PanelData {
                    title: if p.no_history {
                        format!(
                            "{} — {} capacity: no history (the imported history has no series of it; the scenario sends it none)",
                            p.resource, dim
                        )
                    } else {
                        format!("{} — {} capacity", p.resource, dim)
                    },
                    unit: if p.dim == Dim::Read { "RCU/s" } else { "WCU/s" },
                    bucket: if p.bucket_minutes > 1.0 { format!("{} min", p.bucket_minutes) } else { "min".to_string() },
                    x: p.minutes.iter().map(|m| unix(*m)).collect(),
                    requested: p.requested.iter().map(|v| sig(*v)).collect(),
                    provisioned: p.minutes.iter().map(|m| at(&p.provisioned, *m)).collect(),
                    on_demand: p.minutes.iter().map(|m| at(&on_demand, *m)).collect(),
                    consumed: p.consumed.iter().map(|v| sig(*v)).collect(),
                    throttles: p.throttle_events.clone(),
                    events,
                }
            })
            .collect();
        let pos = |v: f64| (v > 0.0).then(|| sig(v));
        let latency = LatencyData {
            x: self.latency.iter().map(|p| unix(p.0)).collect(),
            p50: self.latency.iter().map(|p| pos(p.1)).collect(),
            p99: self.latency.iter().map(|p| pos(p.2)).collect(),
            max: self.latency.iter().map(|p| pos(p.3)).collect(),
        };
        PageData { panels, latency }
    }
}

/// The page for a run.
#[must_use]
pub fn run_report(s: &Summary, page: &Page<'_>) -> String {
    let mut o = String::new();
    head(&mut o, s);
    verdict(&mut o, s);
    figures(&mut o, page);
    requests(&mut o, s);
    resources(&mut o, s);
    latency_and_cost(&mut o, s);
    capacity_events(&mut o, s);
    tail(&mut o, s, page);
    o
}

/// The page's head, its title and the run's particulars.
fn head(o: &mut String, s: &Summary) {
    let title = format!("ddbsim report — {}", s.scenario);
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{}</title><style>{}\n\
body{{font-family:sans-serif;margin:2em;max-width:1260px;color:#222}}table{{border-collapse:collapse;margin:0.5em 0 1em}}\
td,th{{border:1px solid #ccc;padding:3px 8px;text-align:right}}th{{background:#f3f3f3}}td:first-child,th:first-child{{text-align:left}}\
figure{{margin:1em 0}}figure img{{max-width:100%;height:auto;display:block}}pre{{background:#f7f7f7;padding:1em;overflow:auto}}.note{{color:#666}}\
.verdict{{border-left:8px solid;padding:0.6em 1em;margin:1em 0 1.5em;background:#fafafa}}.verdict.held{{border-color:#2ca02c}}.verdict.failed{{border-color:#d62728}}\
.verdict h2{{margin:0 0 0.4em}}.verdict dl{{display:grid;grid-template-columns:5em 1fr;gap:0.25em 1em;margin:0}}.verdict dt{{font-weight:bold;color:#555}}.verdict dd{{margin:0}}\
.chart{{margin:0.2em 0}}.chart.capacity{{margin-top:1.2em}}.u-title{{font-size:15px;font-weight:normal}}\
</style></head><body>\n",
        escape(&title),
        UPLOT_CSS
    );
    let _ = writeln!(
        o,
        "<h1>{}</h1><p>{}</p><p class=\"note\">ddbsim {} · seed {} · {} fidelity · {} simulated from {} · {}</p>",
        escape(&title),
        escape(&s.description),
        escape(&s.ddbsim_version),
        s.seed,
        escape(&s.fidelity),
        escape(crate::format::elapsed(s.duration_s).trim_start_matches('+')),
        escape(&crate::format::clock(s.start_unix_s, 0)),
        escape(&s.prices)
    );
}

/// The verdict: held or not, and where, when, why, the cost and the next thing to try.
fn verdict(o: &mut String, s: &Summary) {
    let v = &s.verdict;
    let _ = write!(
        o,
        "<section class=\"verdict {}\" id=\"verdict\"><h2>{}</h2><dl>",
        if v.held { "held" } else { "failed" },
        escape(&v.headline)
    );
    for l in &v.lines {
        let _ = write!(o, "<dt>{}</dt><dd>{}</dd>", l.topic.name(), escape(&l.text));
    }
    o.push_str("</dl></section>\n");
}

/// The interactive charts' place, the heatmap and the load-duration chart.
fn figures(o: &mut String, page: &Page<'_>) {
    o.push_str(
        "<h2>Capacity and latency over time</h2><p class=\"note\">Hover for values; drag across a chart to zoom every chart in time, double-click to zoom out; click a legend entry to hide its series. Time is UTC.</p>\n<div id=\"interactive\"></div>\n",
    );
    if !page.heatmap_png.is_empty() {
        let _ = writeln!(
            o,
            "<h2>Hot partitions</h2><figure class=\"chart heatmap\" data-chart=\"hot-partitions\"><img alt=\"utilization of each partition's cap per time bucket\" src=\"data:image/png;base64,{}\"><figcaption class=\"note\">The largest share of a partition's cap (3,000 RCU or 1,000 WCU a second) in each bucket; every partition and minute is in <code>partitions.csv</code>.</figcaption></figure>",
            base64(page.heatmap_png)
        );
    }
    if !page.load_duration_png.is_empty() {
        let _ = writeln!(
            o,
            "<h2>Reserved capacity</h2><figure class=\"chart load-duration\" data-chart=\"load-duration\"><img alt=\"load-duration curves of provisioned and consumed capacity\" src=\"data:image/png;base64,{}\"><figcaption class=\"note\">Capacity sorted from the busiest minute: a unit held longer than the break-even share of the time is cheaper reserved (1-year term, this run's prices). <code>ddbsim compare</code> prices the reservation.</figcaption></figure>",
            base64(page.load_duration_png)
        );
    }
}

/// Requests by pattern, the closed loops, the clients, DAX and replication.
fn requests(o: &mut String, s: &Summary) {
    o.push_str("<h2>Requests by pattern</h2>");
    table(
        o,
        &[
            "pattern",
            "operation",
            "offered",
            "served",
            "throttled requests",
            "failed",
            "still retrying",
            "throttled share of attempts",
            "latency p50 / p99 / max, ms",
        ],
        s.patterns.iter().map(|p| {
            let r = &p.requests;
            vec![
                escape(&p.name),
                escape(&p.op),
                grouped(r.offered),
                grouped(r.served),
                grouped(r.throttled_requests),
                grouped(r.failed),
                grouped(r.pending_at_end),
                percent(r.throttled_attempt_share),
                p.latency_ms.as_ref().map_or_else(|| "–".to_string(), |l| format!("{:.1} / {:.1} / {:.1}", l.p50, l.p99, l.max)),
            ]
        }),
        "summary.json",
    );
    for p in &s.patterns {
        if let Some(c) = &p.closed_loop {
            let _ = writeln!(o, "<p><b>{}</b>: {}</p>", escape(&p.name), escape(&c.describe(s.duration_s)));
        }
    }
    let _ = writeln!(o, "<p class=\"note\">clients: {}</p>", escape(&s.client.describe()));
    if let Some(d) = &s.dax {
        let _ = writeln!(o, "<p class=\"note\">{}</p>", escape(&super::summary::describe_dax(d)));
    }
    for r in &s.resources {
        if let Some(rep) = &r.replica {
            let _ = writeln!(o, "<p class=\"note\">{}</p>", escape(&rep.describe(&r.name)));
        }
    }
}

/// The table and its indexes, their throttle reasons, and the hottest keys.
fn resources(o: &mut String, s: &Summary) {
    o.push_str("<h2>Table and indexes</h2>");
    table(
        o,
        &[
            "resource",
            "kind",
            "mode",
            "partitions",
            "provisioned RCU",
            "provisioned WCU",
            "consumed RCU",
            "consumed WCU",
            "read throttle events",
            "write throttle events",
            "storage GB",
        ],
        s.resources.iter().map(|r| {
            vec![
                escape(&r.name),
                r.kind.word().to_string(),
                r.mode.name().to_string(),
                r.partitions.to_string(),
                r.provisioned_rcu.to_string(),
                r.provisioned_wcu.to_string(),
                num(r.consumed_rcu),
                num(r.consumed_wcu),
                grouped(r.read_throttle_events),
                grouped(r.write_throttle_events),
                num(r.storage_gb),
            ]
        }),
        "summary.json",
    );
    for r in &s.resources {
        for (reason, n) in &r.throttle_events_by_reason {
            let _ = write!(o, "<p>{}: <code>{}</code> × {}</p>", escape(&r.name), escape(reason.name()), grouped(*n));
        }
    }
    if !s.hot_keys.is_empty() {
        o.push_str("<h2>Hottest keys</h2>");
        table(
            o,
            &["key", "resource", "partition", "requests/s"],
            s.hot_keys
                .iter()
                .map(|k| vec![escape(&k.label()), escape(&k.resource), k.partition.to_string(), format!("{:.1}", k.requests_per_s)]),
            "summary.json",
        );
    }
}

/// Latency percentiles and the bill.
fn latency_and_cost(o: &mut String, s: &Summary) {
    let l = &s.latency_ms;
    let _ = write!(
        o,
        "<h2>Latency</h2><p>served requests, ms: p50 {} · p90 {} · p99 {} · p99.9 {} · max {}</p>",
        num(l.p50),
        num(l.p90),
        num(l.p99),
        num(l.p999),
        num(l.max)
    );
    let c = &s.cost;
    let extrapolation = match (c.monthly_usd, c.yearly_usd) {
        (Some(m), Some(y)) => format!("<b>estimate</b> if the window repeated: {} a month (730 h), {} a year", usd(m), usd(y)),
        _ => "not extrapolated to a month (<code>[pricing] extrapolate = \"none\"</code>, the default below a day)".to_string(),
    };
    let _ = write!(
        o,
        "<h2>Cost of this mode</h2><p><b>{}</b> for the simulated {:.3} h; {extrapolation}.</p>",
        crate::format::usd_window(c.total_usd),
        c.window_hours,
    );
    table(
        o,
        &["resource", "component", "arithmetic", "USD (window)"],
        c.lines.iter().map(|l| vec![escape(&l.resource), l.component.name().to_string(), escape(&l.arithmetic), num(l.cost_usd)]),
        "summary.json",
    );
    if !c.unverified_items.is_empty() {
        let names: Vec<&str> = c.unverified_items.iter().map(|i| i.name()).collect();
        let _ = write!(o, "<p class=\"note\">Unverified prices (third-party or tooling sources): {}</p>", names.join(", "));
    }
}

/// Every capacity event.
fn capacity_events(o: &mut String, s: &Summary) {
    if !s.capacity_events.is_empty() {
        let counts = super::verdict::event_counts(&s.capacity_events);
        let _ = write!(o, "<h2>Capacity events</h2><p>{} in all: {}.</p>", grouped(s.capacity_events.len() as u64), escape(&counts));
        table(
            o,
            &["UTC", "elapsed", "resource", "action", "dimension", "old", "new", "detail"],
            s.capacity_events.iter().map(|e| {
                vec![
                    escape(&crate::format::clock(s.start_unix_s, e.time_s)),
                    escape(&crate::format::elapsed(e.time_s)),
                    escape(&e.resource),
                    e.action.name().to_string(),
                    e.dimension.map_or("", |d| d.name()).to_string(),
                    num(e.old),
                    num(e.new),
                    escape(&e.detail),
                ]
            }),
            "summary.json (capacity_events)",
        );
    }
}

/// The scenario's text, the data of the interactive charts and their scripts.
fn tail(o: &mut String, s: &Summary, page: &Page<'_>) {
    let _ = writeln!(o, "<h2>Scenario</h2><pre>{}</pre>", escape(&s.scenario_text));
    let data = serde_json::to_string(&page.data()).unwrap_or_else(|_| "{}".into()).replace("</", "<\\/");
    let _ = writeln!(o, "<script type=\"application/json\" id=\"ddbsim-data\">{data}</script>");
    let _ = writeln!(o, "<script>{}</script>\n<script>{}</script>", UPLOT_JS.replace("</script", "<\\/script"), REPORT_JS);
    o.push_str("</body></html>\n");
}
