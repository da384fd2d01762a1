//! Outputs of a run: `summary.json`, `timeseries.csv`, `partitions.csv`, and the terminal
//! summary. Reads finished results only; every file is written atomically.

pub mod html;
pub mod plot;
pub mod summary;
pub mod tables;

use crate::engine::RunResult;
use crate::output::{prepare_dir, write_atomic, OutputError};
use std::path::{Path, PathBuf};

pub use summary::Summary;

/// Writes the run's files into `dir`; returns their paths.
///
/// # Errors
/// [`OutputError`] naming the folder or file that could not be written.
pub fn write_run(dir: &Path, r: &RunResult, summary: &Summary) -> Result<Vec<PathBuf>, OutputError> {
    prepare_dir(dir)?;
    let mut written = Vec::new();
    let files: [(&str, Vec<u8>); 3] = [
        ("summary.json", summary.to_json().into_bytes()),
        ("timeseries.csv", tables::timeseries_csv(r)),
        ("partitions.csv", tables::partitions_csv(r)),
    ];
    for (name, bytes) in files {
        let p = dir.join(name);
        write_atomic(&p, &bytes)?;
        written.push(p);
    }
    Ok(written)
}

/// Draws a chart with one body for both backends.
#[macro_export]
macro_rules! draw_chart {
    ($height:expr, $name:expr, |$root:ident| $body:expr) => {
        $crate::report::plot::render($height, $name, &|$root| $body, &|$root| $body)
    };
}

/// Something the charts or the report could not do. Fatal for the command.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// Writing failed (exit 2).
    #[error(transparent)]
    Output(#[from] OutputError),
    /// Drawing failed (exit 2).
    #[error(transparent)]
    Chart(#[from] plot::ChartError),
    /// The files of an earlier run are missing or malformed (exit 1).
    #[error("{0}")]
    Input(String),
}

/// Writes `name.svg` and `name.png`.
///
/// # Errors
/// [`ReportError::Output`].
pub fn write_chart(dir: &Path, name: &str, svg: &str, png: &[u8]) -> Result<Vec<PathBuf>, ReportError> {
    let s = dir.join(format!("{name}.svg"));
    let p = dir.join(format!("{name}.png"));
    write_atomic(&s, svg.as_bytes())?;
    write_atomic(&p, png)?;
    Ok(vec![s, p])
}

/// Markers for capacity events and `[[at]]` actions from `summary.json`.
#[must_use]
pub fn markers(summary: &serde_json::Value) -> Vec<plot::Marker> {
    let mut m = Vec::new();
    if let Some(ev) = summary["capacity_events"].as_array() {
        for e in ev {
            let action = e["action"].as_str().unwrap_or("");
            if matches!(action, "partitions_added" | "heat_split_skipped") {
                continue;
            }
            let dim = e["dimension"].as_str().unwrap_or("");
            let label =
                if e["old"] == e["new"] { action.to_string() } else { format!("{action} {dim} {}", e["new"].as_f64().unwrap_or(0.0)) };
            m.push((e["time_s"].as_f64().unwrap_or(0.0) / 60.0, e["resource"].as_str().unwrap_or("").to_string(), label));
        }
    }
    let table = summary["resources"][0]["name"].as_str().unwrap_or("").to_string();
    if let Some(tl) = summary["timeline"].as_array() {
        for t in tl {
            m.push((t[0].as_f64().unwrap_or(0.0) / 60.0, table.clone(), format!("[[at]] {}", t[1].as_str().unwrap_or(""))));
        }
    }
    m
}

/// Draws the run's charts and `report.html` from its rows and summary.
///
/// # Errors
/// [`ReportError`] for a chart or a file that could not be written.
pub fn write_charts(
    dir: &Path,
    series: &[tables::SeriesRow],
    parts: &[tables::PartitionRow],
    summary: &serde_json::Value,
) -> Result<Vec<PathBuf>, ReportError> {
    prepare_dir(dir)?;
    let mut written = Vec::new();
    let mut svgs = Vec::new();
    let panels = plot::capacity_panels(series);
    let marks = markers(summary);
    let h = plot::PANEL_HEIGHT * panels.len().max(1) as u32;
    let (svg, png) = draw_chart!(h, "capacity", |root| plot::capacity(root, &panels, &marks))?;
    written.extend(write_chart(dir, "capacity", &svg, &png)?);
    svgs.push(("capacity: requested, consumed and provisioned units per second, throttle events per minute".to_string(), svg));
    let maps = plot::heatmaps(parts);
    let hot: Vec<String> = summary["hot_keys"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|k| {
                    format!(
                        "{} on {} p{}: {}/s",
                        k["key"].as_str().unwrap_or(""),
                        k["resource"].as_str().unwrap_or(""),
                        k["partition"],
                        k["requests_per_s"]
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let h = (plot::PANEL_HEIGHT + 60) * maps.len().max(1) as u32;
    let (svg, png) = draw_chart!(h, "hot-partitions", |root| plot::hot_partitions(root, &maps, &hot))?;
    written.extend(write_chart(dir, "hot-partitions", &svg, &png)?);
    svgs.push(("hot partitions: utilization of each partition's cap per minute".to_string(), svg));
    let pts = plot::latency_points(series);
    let (svg, png) = draw_chart!(plot::PANEL_HEIGHT + 100, "latency", |root| plot::latency(root, &pts))?;
    written.extend(write_chart(dir, "latency", &svg, &png)?);
    svgs.push(("latency percentiles per minute".to_string(), svg));
    let page = html::run_report(summary, &svgs);
    let p = dir.join("report.html");
    write_atomic(&p, page.as_bytes())?;
    written.push(p);
    Ok(written)
}

/// Redraws the charts and report of an earlier run from the files in `dir`.
///
/// # Errors
/// [`ReportError::Input`] naming a missing or malformed file; otherwise as [`write_charts`].
pub fn replot(dir: &Path) -> Result<Vec<PathBuf>, ReportError> {
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(name))
            .map_err(|e| ReportError::Input(format!("{}: {e} (is this the output folder of `ddbsim run`?)", dir.join(name).display())))
    };
    let summary: serde_json::Value = serde_json::from_str(&read("summary.json")?)
        .map_err(|e| ReportError::Input(format!("{}: {e}", dir.join("summary.json").display())))?;
    let rows = |name: &str| -> Result<Vec<_>, ReportError> { Ok(read(name)?.into_bytes()) };
    let bytes = rows("timeseries.csv")?;
    let mut rdr = csv::Reader::from_reader(bytes.as_slice());
    let series: Vec<tables::SeriesRow> = rdr
        .deserialize()
        .collect::<Result<_, _>>()
        .map_err(|e| ReportError::Input(format!("{}: {e}", dir.join("timeseries.csv").display())))?;
    let bytes = rows("partitions.csv")?;
    let mut rdr = csv::Reader::from_reader(bytes.as_slice());
    let parts: Vec<tables::PartitionRow> = rdr
        .deserialize()
        .collect::<Result<_, _>>()
        .map_err(|e| ReportError::Input(format!("{}: {e}", dir.join("partitions.csv").display())))?;
    write_charts(dir, &series, &parts, &summary)
}
