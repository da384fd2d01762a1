//! What `ddbsim check` prints and writes: the terminal summary (PASS or FAIL first, then a line
//! per phase and per finding), JUnit XML (one test case per phase and per finding), and the
//! HTML report with each phase's capacity chart.

use super::html::{base64, escape};
use crate::study::check::{CheckOutput, Severity};
use std::fmt::Write as _;

/// "1 error", "2 errors".
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The terminal summary of one scenario's check.
#[must_use]
pub fn text(c: &CheckOutput, fail_on: Severity) -> String {
    let failed = c.phases.iter().filter(|p| !p.passed).count();
    let count = |s: Severity| c.findings.iter().filter(|f| f.severity == s).count();
    let mut t = format!(
        "{}  {} ({}): {} of {} phases failed, {}, {}, {}{}\n",
        if c.passed { "PASS" } else { "FAIL" },
        c.scenario,
        c.path,
        failed,
        c.phases.len(),
        plural(count(Severity::Error), "error", "errors"),
        plural(count(Severity::Warn), "warning", "warnings"),
        plural(count(Severity::Info), "note", "notes"),
        if fail_on == Severity::Warn { " (--fail-on warn)" } else { "" }
    );
    for p in &c.phases {
        let _ = writeln!(t, "  {}", p.line());
    }
    for f in &c.findings {
        let at = f.resource.as_ref().map_or(String::new(), |r| format!(" [{r}]"));
        let _ = writeln!(t, "  {:<5}  {}{at}: {}", f.severity.name(), f.id, f.title);
        let _ = writeln!(t, "         fix: {}", f.fix);
        if let Some(e) = &f.effect {
            let _ = writeln!(t, "         simulated: {e}");
        }
        for a in &f.assumptions {
            let _ = writeln!(t, "         rests on: {a}");
        }
    }
    t
}

fn xml(s: &str) -> String {
    escape(s).replace('"', "&quot;")
}

/// JUnit XML: a test suite per scenario, a test case per phase and per finding. A failed
/// phase, and a finding at or above `fail_on`, is a `<failure>`; other findings pass with their
/// text in `<system-out>`.
#[must_use]
pub fn junit(checks: &[CheckOutput], fail_on: Severity) -> String {
    let cases = |c: &CheckOutput| c.phases.len() + c.findings.len();
    let failures =
        |c: &CheckOutput| c.phases.iter().filter(|p| !p.passed).count() + c.findings.iter().filter(|f| f.severity >= fail_on).count();
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites name=\"ddbsim check\" tests=\"{}\" failures=\"{}\">",
        checks.iter().map(cases).sum::<usize>(),
        checks.iter().map(failures).sum::<usize>()
    );
    for c in checks {
        let _ = writeln!(x, "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\">", xml(&c.scenario), cases(c), failures(c));
        let _ = writeln!(
            x,
            "    <properties><property name=\"scenario\" value=\"{}\"/><property name=\"seed\" value=\"{}\"/></properties>",
            xml(&c.path),
            c.seed
        );
        for p in &c.phases {
            let _ = writeln!(x, "    <testcase classname=\"{}.phase\" name=\"{}\">", xml(&c.scenario), p.phase.name());
            let body: Vec<String> = p.measures.iter().map(crate::study::check::Measure::text).collect();
            if p.passed {
                let _ = writeln!(x, "      <system-out>{}</system-out>", xml(&body.join("\n")));
            } else {
                let failed: Vec<String> = p.measures.iter().filter(|m| !m.passed).map(crate::study::check::Measure::text).collect();
                let _ = writeln!(
                    x,
                    "      <failure type=\"phase\" message=\"{}\">{}</failure>",
                    xml(&failed.join("; ")),
                    xml(&body.join("\n"))
                );
            }
            let _ = writeln!(x, "    </testcase>");
        }
        for f in &c.findings {
            let name = f.resource.as_ref().map_or(f.id.clone(), |r| format!("{} ({r})", f.id));
            let _ = writeln!(x, "    <testcase classname=\"{}.finding\" name=\"{}\">", xml(&c.scenario), xml(&name));
            let mut body = f.evidence.join("\n");
            let _ = write!(body, "\nfix: {}", f.fix);
            if let Some(e) = &f.effect {
                let _ = write!(body, "\nsimulated: {e}");
            }
            for a in &f.assumptions {
                let _ = write!(body, "\nrests on: {a}");
            }
            let _ = write!(body, "\nsource: {}", f.source);
            if f.severity >= fail_on {
                let _ = writeln!(x, "      <failure type=\"{}\" message=\"{}\">{}</failure>", f.severity.name(), xml(&f.title), xml(&body));
            } else {
                let _ = writeln!(x, "      <system-out>{}: {}\n{}</system-out>", f.severity.name(), xml(&f.title), xml(&body));
            }
            let _ = writeln!(x, "    </testcase>");
        }
        let _ = writeln!(x, "  </testsuite>");
    }
    x.push_str("</testsuites>\n");
    x
}

/// A phase's charts for the HTML report: (phase name, capacity PNG, hot-partitions PNG).
pub type PhaseCharts = Vec<(String, Vec<u8>, Option<Vec<u8>>)>;

/// The HTML report: per scenario, the verdict, the phases with their capacity charts, and the
/// findings with evidence, fix and source.
#[must_use]
pub fn html(checks: &[(CheckOutput, PhaseCharts)]) -> String {
    let mut h = String::from(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>ddbsim check</title>\n<style>\
         body{font-family:system-ui,sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}\
         .verdict{padding:.6em 1em;border-radius:6px;font-size:1.2em;font-weight:600}\
         .pass{background:#e3f4e6;border:1px solid #2e7d32}.fail{background:#fdeaea;border:1px solid #c62828}\
         table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}\
         .error{color:#c62828;font-weight:600}.warn{color:#b26a00;font-weight:600}.info{color:#555}\
         img{max-width:100%;border:1px solid #eee}</style></head><body>\n<h1>ddbsim check</h1>\n\
         <p>Every figure comes from ddbsim's simulation of the scenario (an estimate of DynamoDB's behaviour, not a measurement); \
         monthly costs are extrapolated from the simulated window.</p>\n",
    );
    for (c, charts) in checks {
        let failed = c.phases.iter().filter(|p| !p.passed).count();
        let errors = c.findings.iter().filter(|f| f.severity == Severity::Error).count();
        let _ = writeln!(
            h,
            "<h2>{}</h2>\n<div class=\"verdict {}\">{} — {} of {} phases failed, {} ({})</div>\n<p>{} · seed {} · peak {:.1} requests/s</p>",
            escape(&c.scenario),
            if c.passed { "pass" } else { "fail" },
            if c.passed { "PASS" } else { "FAIL" },
            failed,
            c.phases.len(),
            plural(c.findings.len(), "finding", "findings"),
            plural(errors, "error", "errors"),
            escape(&c.path),
            c.seed,
            c.plan.peak_requests_per_s
        );
        h.push_str("<h3>Phases</h3>\n<table><tr><th>phase</th><th>result</th><th>measures</th></tr>\n");
        for p in &c.phases {
            let ms: Vec<String> = p.measures.iter().map(|m| escape(&m.text())).collect();
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td class=\"{}\">{}</td><td>{}</td></tr>",
                p.phase.name(),
                if p.passed { "info" } else { "error" },
                if p.passed { "PASS" } else { "FAIL" },
                ms.join("<br>")
            );
        }
        h.push_str("</table>\n<h3>Findings</h3>\n");
        if c.findings.is_empty() {
            h.push_str("<p>None.</p>\n");
        }
        for f in &c.findings {
            let _ = writeln!(
                h,
                "<p><span class=\"{}\">{}</span> <code>{}</code>{} — {}</p>\n<ul>",
                f.severity.name(),
                f.severity.name(),
                escape(&f.id),
                f.resource.as_ref().map_or(String::new(), |r| format!(" [{}]", escape(r))),
                escape(&f.title)
            );
            for e in &f.evidence {
                let _ = writeln!(h, "<li>{}</li>", escape(e));
            }
            let _ = writeln!(h, "<li><b>fix:</b> {}</li>", escape(&f.fix));
            if let Some(e) = &f.effect {
                let _ = writeln!(h, "<li><b>simulated:</b> {}</li>", escape(e));
            }
            for a in &f.assumptions {
                let _ = writeln!(h, "<li><b>rests on:</b> {}</li>", escape(a));
            }
            let _ = writeln!(h, "<li><i>source:</i> {}</li></ul>", escape(&f.source));
        }
        for (name, capacity, heat) in charts {
            let _ = writeln!(
                h,
                "<h3>{} phase</h3>\n<img alt=\"capacity, {name} phase\" src=\"data:image/png;base64,{}\">",
                escape(name),
                base64(capacity)
            );
            if let Some(png) = heat {
                let _ = writeln!(h, "<img alt=\"hot partitions, {name} phase\" src=\"data:image/png;base64,{}\">", base64(png));
            }
        }
    }
    h.push_str("</body></html>\n");
    h
}
