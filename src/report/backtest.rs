//! `report.html` of `ddbsim backtest`: the verdict first, then every recorded series with its
//! simulation over it on one interactive chart (the vendored uPlot, inlined), the figures of
//! each series, the throttled minutes and, with `--calibrate`, the fitted parameters and the fit
//! before and after. Self-contained: no network fetches.

use super::html::{escape, UPLOT_CSS, UPLOT_JS};
use crate::format::grouped;
use crate::study::backtest::{Backtest, SeriesFit};
use serde::Serialize;
use std::fmt::Write as _;

/// One chart's data for the page's script: UTC seconds, recorded and simulated values.
#[derive(Serialize)]
struct ChartData<'a> {
    title: String,
    unit: &'a str,
    t: Vec<i64>,
    recorded: Vec<f64>,
    simulated: Vec<f64>,
}

/// The page's own script: a chart per series, recorded solid blue, simulated dashed red,
/// zoom synced across charts; it marks the body with the charts drawn and, on `#selftest`, the
/// pixels each line painted.
const SCRIPT: &str = r##"(function () {
  var data = JSON.parse(document.getElementById("backtest-data").textContent);
  var charts = [];
  var sync = uPlot.sync("backtest");
  data.forEach(function (d) {
    var box = document.createElement("div");
    box.className = "chart";
    box.setAttribute("data-chart", d.title);
    document.getElementById("charts").appendChild(box);
    charts.push(new uPlot({
      title: d.title, width: Math.min(1200, window.innerWidth - 60), height: 220,
      cursor: { sync: { key: sync.key } },
      series: [{ label: "UTC" },
        { label: "recorded", stroke: "#1f77b4", width: 1.5 },
        { label: "simulated (estimate)", stroke: "#d62728", width: 1.5, dash: [6, 3] }],
      axes: [{}, { label: d.unit }]
    }, [d.t, d.recorded, d.simulated], box));
  });
  document.body.setAttribute("data-interactive-charts", String(charts.length));
  if (location.hash !== "#selftest") return;
  setTimeout(function () {
    var count = function (c, r, g, b) {
      var cv = c.root.querySelector("canvas"), px = cv.getContext("2d").getImageData(0, 0, cv.width, cv.height).data, n = 0;
      for (var i = 0; i < px.length; i += 4) {
        if (Math.abs(px[i] - r) < 30 && Math.abs(px[i + 1] - g) < 30 && Math.abs(px[i + 2] - b) < 30 && px[i + 3] > 100) n++;
      }
      return n;
    };
    document.body.setAttribute("data-painted-recorded", charts.map(function (c) { return count(c, 31, 119, 180); }).join(","));
    document.body.setAttribute("data-painted-simulated", charts.map(function (c) { return count(c, 214, 39, 40); }).join(","));
  }, 100);
})();"##;

/// The axis label: a minute's sum, as CloudWatch's one-minute Sum (provisioned: its level).
fn unit(metric: &str) -> &'static str {
    if metric.starts_with("Provisioned") {
        "units a second"
    } else if metric.contains("Capacity") {
        "units a minute"
    } else {
        "a minute"
    }
}

fn figure(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        grouped(x as u64)
    } else {
        format!("{x:.1}")
    }
}

fn series_table(o: &mut String, series: &[SeriesFit]) {
    o.push_str("<table><thead><tr><th>resource</th><th>metric</th><th>recorded</th><th>simulated</th><th>ratio</th><th>MAE a minute</th><th>of the recorded mean</th><th>fits</th><th>hour that differs most</th></tr></thead><tbody>\n");
    for s in series {
        let _ = writeln!(
            o,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.2}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&s.resource),
            escape(s.metric),
            figure(s.recorded),
            figure(s.simulated),
            s.ratio.map_or_else(|| "—".to_string(), |r| format!("{r:.3}")),
            s.mae,
            s.mae_share.map_or_else(|| "—".to_string(), |m| format!("{:.1} %", m * 100.0)),
            if s.fits { "yes" } else { "<b>no</b>" },
            escape(s.worst_hour.as_deref().unwrap_or("—"))
        );
    }
    o.push_str("</tbody></table>\n");
}

/// The page.
#[must_use]
pub fn html(b: &Backtest) -> String {
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>ddbsim backtest — {}</title><style>{}\n\
body{{font-family:sans-serif;margin:2em;max-width:1260px;color:#222}}table{{border-collapse:collapse;margin:0.5em 0 1em}}\
td,th{{border:1px solid #ccc;padding:3px 8px;text-align:right}}th{{background:#f3f3f3}}td:first-child,th:first-child,td:nth-child(2),th:nth-child(2){{text-align:left}}\
.note{{color:#666}}.verdict{{border-left:8px solid;padding:0.6em 1em;margin:1em 0 1.5em;background:#fafafa}}.verdict.fits{{border-color:#2ca02c}}.verdict.off{{border-color:#d62728}}\
.chart{{margin:0.4em 0}}.u-title{{font-size:15px;font-weight:normal}}</style></head><body>\n",
        escape(&b.scenario),
        UPLOT_CSS
    );
    let _ = writeln!(
        o,
        "<h1>ddbsim backtest — {}</h1><p class=\"note\">{} minutes from {} · recorded: the table's CloudWatch history · simulated: ddbsim's estimate of the same window</p>",
        escape(&b.scenario),
        grouped(b.minutes as u64),
        escape(&b.start)
    );
    let _ = writeln!(
        o,
        "<div class=\"verdict {}\"><h2>{}</h2><ul>{}</ul></div>",
        if b.verdict.fits { "fits" } else { "off" },
        escape(&b.verdict.headline),
        b.verdict.lines.iter().map(|l| format!("<li>{}</li>", escape(l))).collect::<String>()
    );
    o.push_str("<h2>Recorded and simulated, minute by minute</h2><div id=\"charts\"></div>\n<h2>Series</h2>\n");
    series_table(&mut o, &b.series);
    let t = &b.throttled_minutes;
    let _ = writeln!(
        o,
        "<p>Minutes throttled: {} in the record, {} in the simulation, {} in both.</p>",
        grouped(t.recorded),
        grouped(t.simulated),
        grouped(t.both)
    );
    if let Some(c) = &b.calibration {
        o.push_str("<h2>Calibration</h2>\n<table><thead><tr><th>parameter</th><th>value</th><th>fits from</th><th>to</th><th>identified</th><th>how</th></tr></thead><tbody>\n");
        for p in &c.parameters {
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td>{:.4}</td><td>{:.4}</td><td>{:.4}</td><td>{}</td><td>{}</td></tr>",
                escape(&p.path),
                p.value,
                p.low,
                p.high,
                if p.identified { "yes" } else { "no: only bounded" },
                escape(&p.note)
            );
        }
        o.push_str("</tbody></table>\n");
        if !c.notes.is_empty() {
            o.push_str("<p>Not fitted:</p><ul>");
            for n in &c.notes {
                let _ = write!(o, "<li>{}</li>", escape(n));
            }
            o.push_str("</ul>\n");
        }
        o.push_str("<h3>Before calibration</h3>\n");
        series_table(&mut o, &c.before);
    }
    if !b.notes.is_empty() {
        o.push_str("<h2>Notes</h2><ul>");
        for n in &b.notes {
            let _ = write!(o, "<li>{}</li>", escape(n));
        }
        o.push_str("</ul>\n");
    }
    let data: Vec<ChartData> = b
        .series
        .iter()
        .map(|s| ChartData {
            title: format!("{} · {}", s.resource, s.metric),
            unit: unit(s.metric),
            t: s.per_minute.iter().map(|m| b.start_unix_s + i64::from(m.0) * 60).collect(),
            recorded: s.per_minute.iter().map(|m| m.1).collect(),
            simulated: s.per_minute.iter().map(|m| m.2).collect(),
        })
        .collect();
    let json = serde_json::to_string(&data).expect("plain data").replace("</", "<\\/");
    let _ = writeln!(
        o,
        "<script type=\"application/json\" id=\"backtest-data\">{json}</script>\n<script>{}</script>\n<script>{SCRIPT}</script>\n</body></html>",
        UPLOT_JS.replace("</script", "<\\/script")
    );
    o
}
