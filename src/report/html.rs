//! `report.html`: one self-contained page — the summary, every chart inline as SVG, the
//! scenario text, the version and the seed. No network fetches: no external scripts, styles,
//! fonts or images.

use super::summary::Summary;
use super::text::component_name;
use crate::engine::ResourceKind;
use std::fmt::Write as _;

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

fn table(o: &mut String, headers: &[&str], rows: impl Iterator<Item = Vec<String>>) {
    o.push_str("<table><thead><tr>");
    for h in headers {
        let _ = write!(o, "<th>{}</th>", escape(h));
    }
    o.push_str("</tr></thead><tbody>");
    for r in rows {
        o.push_str("<tr>");
        for c in r {
            let _ = write!(o, "<td>{c}</td>");
        }
        o.push_str("</tr>");
    }
    o.push_str("</tbody></table>");
}

/// The page for a run: `charts` are (title, SVG) pairs.
#[must_use]
pub fn run_report(s: &Summary, charts: &[(String, String)]) -> String {
    let mut o = String::new();
    let title = format!("ddbsim report — {}", s.scenario);
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>\
body{{font-family:sans-serif;margin:2em;max-width:1260px;color:#222}}table{{border-collapse:collapse;margin:0.5em 0 1.5em}}\
td,th{{border:1px solid #ccc;padding:3px 8px;text-align:right}}th{{background:#f3f3f3}}td:first-child,th:first-child{{text-align:left}}\
figure{{margin:1em 0}}figure svg{{max-width:100%;height:auto;display:block}}pre{{background:#f7f7f7;padding:1em;overflow:auto}}.note{{color:#666}}\
</style></head><body>\n",
        escape(&title)
    );
    let _ = writeln!(
        o,
        "<h1>{}</h1><p>{}</p><p class=\"note\">ddbsim {} · seed {} · {} fidelity · {} s simulated · {}</p>",
        escape(&title),
        escape(&s.description),
        escape(&s.ddbsim_version),
        s.seed,
        escape(&s.fidelity),
        s.duration_s,
        escape(&s.prices)
    );
    let _ = writeln!(o, "<p class=\"note\">clients: {}</p>", escape(&s.client.describe()));
    o.push_str("<h2>Requests by pattern</h2>");
    table(
        &mut o,
        &["pattern", "operation", "offered", "served", "throttled requests", "failed", "still retrying", "throttled share of attempts"],
        s.patterns.iter().map(|p| {
            let r = &p.requests;
            vec![
                escape(&p.name),
                escape(&p.op),
                r.offered.to_string(),
                r.served.to_string(),
                r.throttled_requests.to_string(),
                r.failed.to_string(),
                r.pending_at_end.to_string(),
                num(r.throttled_attempt_share),
            ]
        }),
    );
    for p in &s.patterns {
        if let Some(c) = &p.closed_loop {
            let _ = writeln!(o, "<p><b>{}</b>: {}</p>", escape(&p.name), escape(&c.describe(s.duration_s)));
        }
    }
    o.push_str("<h2>Table and indexes</h2>");
    table(
        &mut o,
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
                (if r.kind == ResourceKind::Gsi { "gsi" } else { "table" }).to_string(),
                r.mode.name().to_string(),
                r.partitions.to_string(),
                r.provisioned_rcu.to_string(),
                r.provisioned_wcu.to_string(),
                num(r.consumed_rcu),
                num(r.consumed_wcu),
                r.read_throttle_events.to_string(),
                r.write_throttle_events.to_string(),
                num(r.storage_gb),
            ]
        }),
    );
    for r in &s.resources {
        for (reason, n) in &r.throttle_events_by_reason {
            let _ = write!(o, "<p>{}: <code>{}</code> × {}</p>", escape(&r.name), escape(reason), n);
        }
    }
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
    let _ = write!(
        o,
        "<h2>Cost of this mode</h2><p>${:.2} over the simulated {:.3} h; <b>extrapolated</b> ${:.2} a month (730 h), ${:.2} a year.</p>",
        c.total_usd, c.window_hours, c.monthly_usd, c.yearly_usd
    );
    table(
        &mut o,
        &["resource", "component", "arithmetic", "USD (window)"],
        c.lines.iter().map(|l| vec![escape(&l.resource), component_name(l.component).to_string(), escape(&l.arithmetic), num(l.cost_usd)]),
    );
    if !c.unverified_items.is_empty() {
        let names: Vec<&str> = c.unverified_items.iter().map(|i| i.name()).collect();
        let _ = write!(o, "<p class=\"note\">Unverified prices (third-party or tooling sources): {}</p>", names.join(", "));
    }
    if !s.capacity_events.is_empty() {
        o.push_str("<h2>Capacity events</h2>");
        table(
            &mut o,
            &["second", "resource", "action", "dimension", "old", "new", "detail"],
            s.capacity_events.iter().map(|e| {
                vec![
                    e.time_s.to_string(),
                    escape(&e.resource),
                    e.action.name().to_string(),
                    e.dimension.map_or("", |d| d.name()).to_string(),
                    num(e.old),
                    num(e.new),
                    escape(&e.detail),
                ]
            }),
        );
    }
    o.push_str("<h2>Charts</h2>\n");
    for (name, svg) in charts {
        let _ = write!(
            o,
            "<figure class=\"chart\" data-chart=\"{}\"><figcaption>{}</figcaption>\n{}\n</figure>\n",
            escape(name),
            escape(name),
            strip_xml_header(svg)
        );
    }
    let _ = writeln!(o, "<h2>Scenario</h2><pre>{}</pre>", escape(&s.scenario_text));
    // Marks how many charts have a visible size once laid out (read by the end-to-end test).
    o.push_str(
        "<script>window.addEventListener('load',function(){var n=0;document.querySelectorAll('figure.chart svg').forEach(function(s){var r=s.getBoundingClientRect();if(r.width>0&&r.height>0){n++;}});document.body.setAttribute('data-charts-visible',String(n));});</script>\n",
    );
    o.push_str("</body></html>\n");
    o
}

/// Drops an `<?xml ...?>` declaration so an SVG document can be inlined in HTML.
#[must_use]
pub fn strip_xml_header(svg: &str) -> &str {
    if svg.starts_with("<?xml") {
        svg.find("?>").map_or(svg, |i| svg[i + 2..].trim_start())
    } else {
        svg
    }
}
