//! `report.html`: one self-contained page — the summary, every chart inline as SVG, the
//! scenario text, the version and the seed. No network fetches: no external scripts, styles,
//! fonts or images.

use serde_json::Value;
use std::fmt::Write as _;

/// Escapes text for HTML.
#[must_use]
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn num(v: &Value) -> String {
    match v {
        Value::Number(n) => {
            if let Some(f) = n.as_f64() {
                if f.fract() == 0.0 && f.abs() < 1e15 {
                    format!("{}", f as i64)
                } else {
                    format!("{f:.4}")
                }
            } else {
                n.to_string()
            }
        }
        Value::String(s) => escape(s),
        other => escape(&other.to_string()),
    }
}

fn table(o: &mut String, rows: &[Value], cols: &[(&str, &str)]) {
    o.push_str("<table><thead><tr>");
    for (_, h) in cols {
        let _ = write!(o, "<th>{}</th>", escape(h));
    }
    o.push_str("</tr></thead><tbody>");
    for r in rows {
        o.push_str("<tr>");
        for (k, _) in cols {
            let _ = write!(o, "<td>{}</td>", r.get(*k).map_or_else(String::new, num));
        }
        o.push_str("</tr>");
    }
    o.push_str("</tbody></table>");
}

/// The page for a run: `summary` is `summary.json`, `charts` are (title, SVG) pairs.
#[must_use]
pub fn run_report(summary: &Value, charts: &[(String, String)]) -> String {
    let s = |k: &str| summary.get(k).cloned().unwrap_or(Value::Null);
    let mut o = String::new();
    let title = format!("ddbsim report — {}", s("scenario").as_str().unwrap_or("scenario"));
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
        escape(s("description").as_str().unwrap_or("")),
        num(&s("ddbsim_version")),
        num(&s("seed")),
        num(&s("fidelity")),
        num(&s("duration_s")),
        num(&s("prices"))
    );
    o.push_str("<h2>Requests by pattern</h2>");
    table(
        &mut o,
        s("patterns").as_array().map_or(&[][..], Vec::as_slice),
        &[
            ("name", "pattern"),
            ("op", "operation"),
            ("offered", "offered"),
            ("served", "served"),
            ("throttled_requests", "throttled requests"),
            ("failed", "failed"),
            ("pending_at_end", "still retrying"),
            ("throttled_attempt_share", "throttled share of attempts"),
        ],
    );
    o.push_str("<h2>Table and indexes</h2>");
    table(
        &mut o,
        s("resources").as_array().map_or(&[][..], Vec::as_slice),
        &[
            ("name", "resource"),
            ("kind", "kind"),
            ("mode", "mode"),
            ("partitions", "partitions"),
            ("provisioned_rcu", "provisioned RCU"),
            ("provisioned_wcu", "provisioned WCU"),
            ("consumed_rcu", "consumed RCU"),
            ("consumed_wcu", "consumed WCU"),
            ("read_throttle_events", "read throttle events"),
            ("write_throttle_events", "write throttle events"),
            ("storage_gb", "storage GB"),
        ],
    );
    if let Some(rs) = s("resources").as_array() {
        for r in rs {
            if let Some(m) = r.get("throttle_events_by_reason").and_then(Value::as_object) {
                for (reason, n) in m {
                    let _ = write!(o, "<p>{}: <code>{}</code> × {}</p>", escape(r["name"].as_str().unwrap_or("")), escape(reason), num(n));
                }
            }
        }
    }
    let l = s("latency_ms");
    let _ = write!(
        o,
        "<h2>Latency</h2><p>served requests, ms: p50 {} · p90 {} · p99 {} · p99.9 {} · max {}</p>",
        num(&l["p50"]),
        num(&l["p90"]),
        num(&l["p99"]),
        num(&l["p999"]),
        num(&l["max"])
    );
    let c = s("cost");
    let _ = write!(
        o,
        "<h2>Cost of this mode</h2><p>${:.2} over the simulated {:.3} h; <b>extrapolated</b> ${:.2} a month (730 h), ${:.2} a year.</p>",
        c["total_usd"].as_f64().unwrap_or(0.0),
        c["window_hours"].as_f64().unwrap_or(0.0),
        c["monthly_usd"].as_f64().unwrap_or(0.0),
        c["yearly_usd"].as_f64().unwrap_or(0.0)
    );
    table(
        &mut o,
        c["lines"].as_array().map_or(&[][..], Vec::as_slice),
        &[("resource", "resource"), ("component", "component"), ("arithmetic", "arithmetic"), ("cost_usd", "USD (window)")],
    );
    if let Some(u) = c["unverified_items"].as_array() {
        if !u.is_empty() {
            let names: Vec<String> = u.iter().map(num).collect();
            let _ = write!(o, "<p class=\"note\">Unverified prices (third-party or tooling sources): {}</p>", names.join(", "));
        }
    }
    if let Some(ev) = s("capacity_events").as_array() {
        if !ev.is_empty() {
            o.push_str("<h2>Capacity events</h2>");
            table(
                &mut o,
                ev,
                &[
                    ("time_s", "second"),
                    ("resource", "resource"),
                    ("action", "action"),
                    ("dimension", "dimension"),
                    ("old", "old"),
                    ("new", "new"),
                    ("detail", "detail"),
                ],
            );
        }
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
    let _ = writeln!(o, "<h2>Scenario</h2><pre>{}</pre>", escape(s("scenario_text").as_str().unwrap_or("")));
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
