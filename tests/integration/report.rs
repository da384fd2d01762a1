//! Charts and the report: the data behind each chart is the data in the CSV files, `plot`
//! redraws a run from its files, and report.html renders in headless Chromium with every
//! chart visible and no network request.

use ddbsim::report::chart_data::{HeatCharts, SeriesCharts};
use ddbsim::report::tables::{PartitionRow, SeriesRow};
use std::path::Path;
use std::process::Command;

fn ddbsim(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ddbsim")).args(args).output().expect("the binary runs")
}

fn run_quickstart(dir: &Path) {
    let o = ddbsim(&["run", "scenarios/quickstart.toml", "--duration", "8m", "--quiet", "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn read_csv<T: serde::de::DeserializeOwned>(p: &Path) -> Vec<T> {
    csv::Reader::from_path(p).unwrap().deserialize().map(Result::unwrap).collect()
}

#[test]
fn the_charts_plot_what_the_csv_files_say() {
    let d = tempfile::tempdir().unwrap();
    run_quickstart(d.path());
    let series: Vec<SeriesRow> = read_csv(&d.path().join("timeseries.csv"));
    let parts: Vec<PartitionRow> = read_csv(&d.path().join("partitions.csv"));
    let mut charts = SeriesCharts::new(8);
    series.iter().for_each(|r| charts.add(r));
    let panels = charts.panels(&[]);
    let w = panels.iter().find(|p| p.resource == "UserActivity" && p.dim == ddbsim::Dim::Write).expect("a write panel");
    let csv_value = |metric: &str, t: u64| {
        series.iter().find(|r| r.resource == "UserActivity" && r.metric.to_string() == metric && r.time_s == t).unwrap().value
    };
    assert_eq!(w.minutes.len(), 8);
    assert_eq!(w.bucket_minutes, 1.0, "8 minutes are plotted minute by minute");
    for (m, &minute) in w.minutes.iter().enumerate() {
        let t = minute as u64 * 60;
        assert_eq!(w.consumed[m], csv_value("ConsumedWriteCapacityUnits", t) / 60.0);
        assert_eq!(w.requested[m], csv_value("RequestedWriteCapacityUnits", t) / 60.0);
        assert_eq!(w.provisioned[m], (minute, csv_value("ProvisionedWriteCapacityUnits", t)));
        assert_eq!(w.throttle_events[m], csv_value("WriteThrottleEvents", t));
    }
    let mut heat = HeatCharts::new(8, [("UserActivity".to_string(), 2)]);
    parts.iter().for_each(|r| heat.add(r));
    let maps = heat.heatmaps();
    // Reads and writes apart, each on a scale up to its busiest cell.
    assert_eq!(maps.len(), 2);
    assert_eq!((maps[0].dim, maps[1].dim), (ddbsim::Dim::Read, ddbsim::Dim::Write));
    for (map, util) in maps.iter().zip([|r: &PartitionRow| r.read_utilization, |r: &PartitionRow| r.write_utilization]) {
        assert_eq!(map.cells.len(), parts.len());
        for (cell, row) in map.cells.iter().zip(&parts) {
            assert_eq!(*cell, (row.time_s / 60, row.partition, util(row)));
        }
        assert_eq!(map.max, parts.iter().map(util).fold(0.0, f64::max));
    }
    // The load-duration curve: the CSV's provisioned and consumed values, sorted from the top.
    let curves = charts.duration_curves();
    let wc = curves.iter().find(|c| c.resource == "UserActivity" && c.dim == ddbsim::Dim::Write).expect("a write curve");
    let mut prov: Vec<f64> = series
        .iter()
        .filter(|r| r.resource == "UserActivity" && r.metric.to_string() == "ProvisionedWriteCapacityUnits")
        .map(|r| r.value)
        .collect();
    prov.sort_by(|a, b| b.total_cmp(a));
    assert_eq!(wc.provisioned, prov);
    let mut cons: Vec<f64> = series
        .iter()
        .filter(|r| r.resource == "UserActivity" && r.metric.to_string() == "ConsumedWriteCapacityUnits")
        .map(|r| r.value / 60.0)
        .collect();
    cons.sort_by(|a, b| b.total_cmp(a));
    assert_eq!(wc.consumed, cons);
    let lat = charts.latency();
    assert_eq!(lat.len(), 8);
    let p99: Vec<f64> = series.iter().filter(|r| r.metric.to_string() == "LatencyP99Ms").map(|r| r.value).collect();
    assert_eq!(lat.iter().map(|p| p.2).collect::<Vec<_>>(), p99);
}

/// A run of more than 1,000 minutes is plotted in buckets: 2,000 minutes of a constant
/// 1,000 WU/s, bucketed by 2, average 1,000 WU/s in every bucket, and 1,000 points at most.
#[test]
fn long_runs_are_plotted_in_at_most_1000_buckets() {
    let mut charts = SeriesCharts::new(2_000);
    for m in 0..2_000u64 {
        for (metric, value) in
            [("RequestedWriteCapacityUnits", 60_000.0), ("ConsumedWriteCapacityUnits", 60_000.0), ("WriteThrottleEvents", 1.0)]
        {
            charts.add(&SeriesRow { time_s: m * 60, resource: "T".into(), metric: ddbsim::report::Metric::parse(metric).unwrap(), value });
        }
    }
    let p = &charts.panels(&[])[0];
    assert_eq!((p.minutes.len(), p.bucket_minutes), (1_000, 2.0));
    assert!(p.consumed.iter().all(|&v| v == 1_000.0));
    assert!(p.throttle_events.iter().all(|&v| v == 2.0), "events are summed over the bucket");
}

#[test]
fn plot_redraws_a_run_from_its_files() {
    let d = tempfile::tempdir().unwrap();
    run_quickstart(d.path());
    let before: Vec<Vec<u8>> = ["capacity.svg", "hot-partitions.svg", "latency.svg", "report.html"]
        .iter()
        .map(|f| std::fs::read(d.path().join(f)).unwrap())
        .collect();
    for f in ["capacity.svg", "capacity.png", "hot-partitions.svg", "latency.svg", "report.html"] {
        std::fs::remove_file(d.path().join(f)).unwrap();
    }
    let o = ddbsim(&["plot", d.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let after: Vec<Vec<u8>> = ["capacity.svg", "hot-partitions.svg", "latency.svg", "report.html"]
        .iter()
        .map(|f| std::fs::read(d.path().join(f)).unwrap())
        .collect();
    assert!(before == after, "the redrawn charts differ from the run's");
    assert!(d.path().join("capacity.png").is_file());
}

#[test]
fn plot_on_a_folder_with_missing_files_exits_1_naming_the_file() {
    let d = tempfile::tempdir().unwrap();
    let o = ddbsim(&["plot", d.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("summary.json"));
}

#[test]
fn the_report_is_self_contained() {
    let d = tempfile::tempdir().unwrap();
    run_quickstart(d.path());
    let html = std::fs::read_to_string(d.path().join("report.html")).unwrap();
    for needle in ["src=\"http", "href=\"http", "src='http", "@import", "url(http"] {
        assert!(!html.contains(needle), "report.html refers to the network: {needle}");
    }
    assert_eq!(html.matches("<figure class=\"chart heatmap\"").count(), 1);
    assert!(html.contains("id=\"ddbsim-data\"") && html.contains("uPlot"), "the interactive charts' data and library are inlined");
    assert!(html.contains("seed 7") && html.contains("[[pattern]]"), "version, seed and scenario text are in the page");
}

/// Finds Debian's chromium; CI installs it, a developer machine may not have it.
fn chromium() -> Option<&'static str> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"].into_iter().find(|p| Path::new(p).exists())
}

/// Loads `page` in headless Chromium; returns the DOM and the page-initiated request URLs.
fn load(page: &Path, work: &Path) -> (String, Vec<String>) {
    load_at(page, "", work, true)
}

/// Loads `page` with `fragment` (e.g. `#selftest`), with virtual time (timers run to their end)
/// or without (real time, for measuring).
fn load_at(page: &Path, fragment: &str, work: &Path, virtual_time: bool) -> (String, Vec<String>) {
    let netlog = work.join(format!("{}.netlog.json", page.file_name().unwrap().to_string_lossy()));
    let profile = work.join(format!("{}.profile", page.file_name().unwrap().to_string_lossy()));
    let out = Command::new(chromium().unwrap())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1300,1000",
            if virtual_time { "--virtual-time-budget=3000" } else { "--no-default-browser-check" },
            &format!("--user-data-dir={}", profile.display()),
            &format!("--log-net-log={}", netlog.display()),
            "--dump-dom",
            &format!("file://{}{fragment}", page.display()),
        ])
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&out.stdout).into_owned();
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&netlog).unwrap_or_else(|_| "{}".into())).unwrap_or_default();
    let types = &log["constants"]["logEventTypes"];
    let start = types["URL_REQUEST_START_JOB"].as_i64().unwrap_or(-1);
    let mut urls = Vec::new();
    for e in log["events"].as_array().map_or(&[][..], Vec::as_slice) {
        if e["type"].as_i64() == Some(start) {
            let url = e["params"]["url"].as_str().unwrap_or("");
            // Chromium's own background requests carry "not an origin"; the page's carry its origin.
            if !url.is_empty() && e["params"]["initiator"].as_str() != Some("not an origin") && !url.starts_with("file:") {
                urls.push(url.to_string());
            }
        }
    }
    (dom, urls)
}

/// The browser tests need Chromium: under CI its absence is a failure, not a skip.
fn need_chromium() -> bool {
    if chromium().is_none() {
        assert!(std::env::var("CI").is_err(), "CI must have chromium installed: apt-get install chromium (.ci/run does)");
        eprintln!("skipped: chromium is not installed (apt-get install chromium)");
        return false;
    }
    true
}

/// An attribute of the page's <body>, as `--dump-dom` printed it.
fn body_attr(dom: &str, name: &str) -> String {
    let body = &dom[dom.find("<body").unwrap_or(0)..];
    let body = &body[..body.find('>').unwrap_or(body.len())];
    let key = format!("{name}=\"");
    body.find(&key).map_or_else(String::new, |i| {
        let rest = &body[i + key.len()..];
        rest[..rest.find('"').unwrap_or(rest.len())].replace("&gt;", ">")
    })
}

#[test]
fn report_renders_in_headless_chromium_with_every_chart_and_no_request() {
    if !need_chromium() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    run_quickstart(d.path());
    let (dom, urls) = load_at(&d.path().join("report.html"), "#selftest", d.path(), true);
    // Quickstart has reads and writes on its table: two capacity charts, each with its throttle
    // chart, and the latency chart.
    assert_eq!(body_attr(&dom, "data-interactive-charts"), "5", "{}", &dom[..dom.len().min(400)]);
    assert_eq!(body_attr(&dom, "data-images"), "1", "the heatmap image did not load");
    // Every capacity chart and the latency chart paint their consumed / p50 line (the data has
    // consumption and served requests); the throttle charts have no blue series.
    let painted: Vec<u64> = body_attr(&dom, "data-painted").split(',').map(|x| x.parse().unwrap()).collect();
    assert_eq!(painted.len(), 5);
    for i in [0, 2, 4] {
        assert!(painted[i] > 100, "chart {i} painted {} pixels of its line: it rendered empty ({painted:?})", painted[i]);
    }
    assert!(urls.is_empty(), "the report made network requests: {urls:?}");
    // Hover: the cursor at the middle of the first chart's plot shows the values of that minute.
    let hover = body_attr(&dom, "data-hover-values");
    let idx: usize = body_attr(&dom, "data-hover-index").parse().expect("the cursor landed on a point");
    let series: Vec<SeriesRow> = read_csv(&d.path().join("timeseries.csv"));
    let consumed = series
        .iter()
        .find(|r| r.resource == "UserActivity" && r.metric.to_string() == "ConsumedReadCapacityUnits" && r.time_s == idx as u64 * 60)
        .unwrap()
        .value
        / 60.0;
    let shown = hover.split(';').find_map(|kv| kv.strip_prefix("consumed=")).unwrap_or_else(|| panic!("no consumed value in {hover}"));
    let shown: f64 = shown.parse().unwrap_or_else(|_| panic!("consumed shows {shown:?}, not a number"));
    assert!((shown - consumed).abs() <= 0.05 + consumed * 1e-3, "hover shows {shown}, minute {idx} consumed {consumed}/s");
    assert!(hover.starts_with("UTC=2026-01-01 00:"), "the hovered time is UTC clock time: {hover}");
    // Zoom: a drag across the middle half narrows the first chart and, synced, the last.
    let zoom = body_attr(&dom, "data-zoom");
    let ranges: Vec<Vec<f64>> = zoom.split('>').map(|r| r.split(',').map(|x| x.parse().unwrap()).collect()).collect();
    assert_eq!(ranges.len(), 3, "{zoom}");
    let (before, after, last) = (&ranges[0], &ranges[1], &ranges[2]);
    let (w0, w1) = (before[1] - before[0], after[1] - after[0]);
    assert!((w1 / w0 - 0.5).abs() < 0.05, "a drag over half the plot zooms to about half the range: {zoom}");
    assert!(after[0] > before[0] && after[1] < before[1], "{zoom}");
    assert_eq!(after, last, "the other charts follow the zoom");
    // The detector itself: a page that fetches an image from the network is caught.
    let control = d.path().join("control.html");
    std::fs::write(&control, "<html><body><img src=\"http://127.0.0.1:9/x.png\"></body></html>").unwrap();
    let (_, urls) = load(&control, d.path());
    assert!(urls.iter().any(|u| u.starts_with("http://127.0.0.1:9/")), "the request detector saw nothing: {urls:?}");
}

/// The 24-hour headline (1,001 partitions, 1,440 minutes): its report is at most 5 MB and
/// loads, charts drawn, in at most 3 s of headless Chromium's time (measured by the page).
#[test]
fn the_headline_report_is_small_and_renders_in_3_seconds() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("h");
    let o = ddbsim(&["run", "scenarios/headline.toml", "--quiet", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = out.join("report.html");
    let size = std::fs::metadata(&page).unwrap().len();
    assert!(size <= 5_000_000, "report.html is {size} bytes");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.matches("<tr>").count() < 200, "every table is bounded");
    if !need_chromium() {
        return;
    }
    let (dom, _) = load_at(&page, "", d.path(), false);
    let ms: u64 = body_attr(&dom, "data-load-ms")
        .parse()
        .unwrap_or_else(|_| panic!("the page did not finish loading: {}", &dom[..dom.len().min(300)]));
    eprintln!("headline report: {size} bytes, loaded in {ms} ms");
    assert!(ms <= 3_000, "the headline report took {ms} ms to load");
    assert_eq!(body_attr(&dom, "data-interactive-charts"), "3");
}

/// A table may be called `client` (any name a table can have): its capacity panels are its
/// own, and the client's latency stays the client's. The client's series are told from a
/// table's by what they measure, not by a resource name a table can also have. (Before, a row
/// was the client's when its resource was named `client`: a table so named lost its capacity
/// panels, and this test failed.)
#[test]
fn a_table_named_client_keeps_its_charts() {
    let d = tempfile::tempdir().unwrap();
    let sc = d.path().join("client.toml");
    std::fs::write(
        &sc,
        "[scenario]\nduration = \"3m\"\n\n[table]\nname = \"client\"\npartition_key = \"id\"\ncapacity = { mode = \"provisioned\", read = 100, write = 100 }\n\n\
         [keys.id]\ncardinality = 1000\n\n[[pattern]]\nname = \"reads\"\nop = \"get_item\"\nrate = { constant = 50 }\n\n\
         [[pattern]]\nname = \"writes\"\nop = \"put_item\"\nrate = { constant = 20 }\n",
    )
    .unwrap();
    let out = d.path().join("out");
    let o = ddbsim(&["run", sc.to_str().unwrap(), "--quiet", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let series: Vec<SeriesRow> = read_csv(&out.join("timeseries.csv"));
    let mut charts = SeriesCharts::new(3);
    series.iter().for_each(|r| charts.add(r));
    let panels = charts.panels(&[]);
    // 50 reads of 1 KB a second, eventually consistent by default (0.5 RCU each): 25 RCU/s;
    // 20 writes of 1 KB (1 WCU each): 20 WCU/s.
    let read = panels.iter().find(|p| p.resource == "client" && p.dim == ddbsim::Dim::Read).expect("the table's read panel");
    let write = panels.iter().find(|p| p.resource == "client" && p.dim == ddbsim::Dim::Write).expect("the table's write panel");
    assert!((read.consumed.iter().sum::<f64>() / 3.0 - 25.0).abs() < 2.5, "{:?}", read.consumed);
    assert!((write.consumed.iter().sum::<f64>() / 3.0 - 20.0).abs() < 3.0, "{:?}", write.consumed);
    assert_eq!(charts.latency().len(), 3, "the client's latency, a point a minute");
    let svg = std::fs::read_to_string(out.join("capacity.svg")).unwrap();
    assert!(svg.contains("client — read capacity") && svg.contains("client — write capacity"));
}

/// `backtest --out` writes a report.html that overlays, on one interactive chart per series,
/// the recorded history (solid blue) and the simulation (dashed red): in headless Chromium it
/// draws a chart for every series of backtest.json, both lines paint on the consumed-capacity
/// charts, and the page fetches nothing.
#[test]
fn the_backtest_report_overlays_recorded_and_simulated() {
    if !need_chromium() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("bt");
    let o = ddbsim(&[
        "backtest",
        "scenarios/backtest/hot-key-guess.toml",
        "--metrics",
        "scenarios/backtest/metrics.json",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(matches!(o.status.code(), Some(0 | 3)), "{}", String::from_utf8_lossy(&o.stderr));
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("backtest.json")).unwrap()).unwrap();
    let series = doc["series"].as_array().unwrap();
    let (dom, urls) = load_at(&out.join("report.html"), "#selftest", d.path(), true);
    assert_eq!(body_attr(&dom, "data-interactive-charts"), series.len().to_string(), "{}", &dom[..dom.len().min(400)]);
    assert!(urls.is_empty(), "the report made network requests: {urls:?}");
    let painted = |attr: &str| -> Vec<u64> { body_attr(&dom, attr).split(',').map(|x| x.parse().unwrap()).collect() };
    let (rec, sim) = (painted("data-painted-recorded"), painted("data-painted-simulated"));
    for (i, s) in series.iter().enumerate() {
        if s["metric"].as_str().unwrap().starts_with("Consumed") && s["recorded"].as_f64().unwrap() > 0.0 {
            assert!(rec[i] > 100 && sim[i] > 100, "series {i} ({s}): recorded painted {}, simulated {}", rec[i], sim[i]);
        }
    }
    assert!(dom.contains("DOES NOT FIT") || dom.contains("FITS"), "the verdict comes first");
}

/// Issue 46: the load-duration chart said "reserve 2,000 RCU" for a 15-minute window and
/// "reserve 3,000,000 RCU" for the headline held at 1.7 % utilisation. Its advice follows the
/// reservation rule (a repeating window of a day at least) and an over-provisioned table is
/// called so.
#[test]
fn the_load_duration_chart_advises_reservations_only_where_they_apply() {
    let d = tempfile::tempdir().unwrap();
    run_quickstart(d.path());
    let svg = std::fs::read_to_string(d.path().join("load-duration.svg")).unwrap();
    assert!(svg.contains("reserved capacity is not offered") && !svg.contains("reserve 2,000"), "a 8-minute window advises a reservation");
    let out = d.path().join("h");
    let o = ddbsim(&["run", "scenarios/headline.toml", "--duration", "2m", "--quiet", "--no-partitions", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(out.join("load-duration.svg")).unwrap();
    assert!(svg.contains("over-provisioned: the busiest minute consumed"), "the headline's 3,000,000 RCU are not called over-provisioned");
}

/// A GSI whose reads the imported history did not record (`no_history = ["read"]`) keeps its
/// read panel, empty and saying "no history", in the PNG/SVG chart, in report.html and in
/// summary.json; without the flag an index nobody reads has no read panel (#46).
#[test]
fn an_index_without_history_keeps_an_empty_panel_that_says_so() {
    let text = |flag: &str| {
        format!(
            r#"
[scenario]
duration = "5m"
[table]
name = "Orders"
partition_key = "id"
capacity = {{ mode = "provisioned", read = 100, write = 100 }}
[keys.id]
cardinality = 1000
[keys.status]
cardinality = 10
[[gsi]]
name = "ByStatus"
partition_key = "status"
capacity = {{ read = 50, write = 100 }}
{flag}
[[pattern]]
name = "put"
op = "put_item"
item_bytes = 500
rate = {{ constant = 20 }}
index_writes = {{ ByStatus = "insert" }}
"#
        )
    };
    let d = tempfile::tempdir().unwrap();
    for (name, flag) in [("with", "no_history = [\"read\"]"), ("without", "")] {
        let sc = d.path().join(format!("{name}.toml"));
        std::fs::write(&sc, text(flag)).unwrap();
        let out = d.path().join(name);
        let o = ddbsim(&["run", sc.to_str().unwrap(), "--quiet", "--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let svg = std::fs::read_to_string(out.join("capacity.svg")).unwrap();
        let html = std::fs::read_to_string(out.join("report.html")).unwrap();
        let summary: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
        let gsi = summary["resources"].as_array().unwrap().iter().find(|r| r["name"] == "ByStatus").unwrap().clone();
        if name == "with" {
            assert!(svg.contains("ByStatus — read capacity: no history"), "the SVG panel says no history");
            assert!(html.contains("ByStatus — read capacity: no history"), "report.html's panel says no history");
            assert_eq!(gsi["no_history"], serde_json::json!(["read"]));
        } else {
            assert!(!svg.contains("ByStatus — read capacity"), "no read panel for an index nobody reads");
            assert!(gsi.get("no_history").is_none());
        }
        assert!(svg.contains("ByStatus — write capacity"));
    }
}
