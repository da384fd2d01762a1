//! Outputs: what the terminal shows and the files a command writes. Reads finished results
//! only; never runs a simulation.
//!
//! Every result renders through [`Render`]: its terminal text and its [`Artifact`]s (a name and
//! bytes), which [`Output::write_all`] writes as one folder, in one place. A run's files come from
//! [`RunReport`]: `summary.json`, `timeseries.csv`, `partitions.csv`, and unless charts are off,
//! the charts and `report.html`.

pub mod compare;
pub mod html;
pub mod metric;
pub mod plot;
pub mod replications;
pub mod summary;
pub mod sweep;
pub mod tables;
pub mod text;

use crate::output::{OutputDir, OutputError};
use std::path::{Path, PathBuf};

pub use metric::Metric;
pub use summary::Summary;
pub use tables::{PartitionRow, SeriesRow};

/// A file a command writes: its name in the output folder and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Artifact {
    /// File name.
    pub name: String,
    /// Contents.
    pub bytes: Vec<u8>,
}

impl Artifact {
    /// A file named `name`.
    #[must_use]
    pub fn new(name: &str, bytes: impl Into<Vec<u8>>) -> Self {
        Self { name: name.to_string(), bytes: bytes.into() }
    }
}

/// A claimed output folder: locked against other ddbsim runs from the claim until it is
/// dropped, written once, whole ([`crate::output`]).
#[derive(Debug)]
pub struct Output(OutputDir);

impl Output {
    /// Claims `dir` before a command spends time running: it can be written, no other run
    /// holds it, and anything in it is ddbsim's.
    ///
    /// # Errors
    /// [`OutputError`] naming the folder and why.
    pub fn claim(dir: &Path) -> Result<Self, OutputError> {
        Ok(Self(OutputDir::claim(dir)?))
    }

    /// The folder.
    #[must_use]
    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// Writes `artifacts` as the folder's whole contents, replacing the previous output at once
    /// (or leaving it as it was if anything fails); returns their paths.
    ///
    /// # Errors
    /// [`OutputError`] naming the folder or file that could not be written.
    pub fn write_all(&self, artifacts: &[Artifact]) -> Result<Vec<PathBuf>, OutputError> {
        self.0.write(&artifacts.iter().map(|a| (a.name.as_str(), a.bytes.as_slice())).collect::<Vec<_>>(), false)
    }

    /// Writes `artifacts` over the previous output, keeping its other files (`ddbsim plot`).
    ///
    /// # Errors
    /// As [`Output::write_all`].
    pub fn update(&self, artifacts: &[Artifact]) -> Result<Vec<PathBuf>, OutputError> {
        self.0.write(&artifacts.iter().map(|a| (a.name.as_str(), a.bytes.as_slice())).collect::<Vec<_>>(), true)
    }
}

/// A result that shows itself on the terminal and writes files.
pub trait Render {
    /// What the terminal shows.
    fn text(&self) -> String;
    /// The files it writes.
    ///
    /// # Errors
    /// [`ReportError`] when a chart cannot be drawn.
    fn artifacts(&self) -> Result<Vec<Artifact>, ReportError>;
}

/// Pretty JSON with a trailing newline.
pub(crate) fn json<T: serde::Serialize + ?Sized>(v: &T) -> Vec<u8> {
    let mut s = serde_json::to_string_pretty(v).expect("plain data serialises");
    s.push('\n');
    s.into_bytes()
}

/// Draws a chart with one body for both backends.
#[macro_export]
#[doc(hidden)]
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

/// A run's outputs: the summary and the rows of its CSV files.
pub struct RunReport {
    /// `summary.json`.
    pub summary: Summary,
    /// `timeseries.csv`.
    pub series: Vec<SeriesRow>,
    /// `partitions.csv`.
    pub partitions: Vec<PartitionRow>,
    /// Draw the charts and `report.html`.
    pub charts: bool,
}

impl RunReport {
    /// The report of a run of `sc`, billed at `catalog` prices.
    #[must_use]
    pub fn new(sc: &crate::scenario::Scenario, r: &crate::engine::RunResult, catalog: &crate::cost::Catalog, charts: bool) -> Self {
        Self { summary: Summary::new(sc, r, catalog), series: tables::timeseries_rows(r), partitions: tables::partition_rows(r), charts }
    }

    /// The report of an earlier run, from the files in its output folder.
    ///
    /// # Errors
    /// [`ReportError::Input`] naming a missing or malformed file.
    pub fn read(dir: &Path) -> Result<Self, ReportError> {
        let read = |name: &str| {
            std::fs::read_to_string(dir.join(name))
                .map_err(|e| ReportError::Input(format!("{}: {e} (is this the output folder of `ddbsim run`?)", dir.join(name).display())))
        };
        let bad = |name: &str, e: &dyn std::fmt::Display| ReportError::Input(format!("{}: {e}", dir.join(name).display()));
        let summary: Summary = serde_json::from_str(&read("summary.json")?).map_err(|e| bad("summary.json", &e))?;
        let text = read("timeseries.csv")?;
        let series: Vec<SeriesRow> =
            csv::Reader::from_reader(text.as_bytes()).deserialize().collect::<Result<_, _>>().map_err(|e| bad("timeseries.csv", &e))?;
        let text = read("partitions.csv")?;
        let partitions: Vec<PartitionRow> =
            csv::Reader::from_reader(text.as_bytes()).deserialize().collect::<Result<_, _>>().map_err(|e| bad("partitions.csv", &e))?;
        // A chart cannot scale an axis to infinity: refuse what no run writes.
        if let Some(i) = series.iter().position(|r| !r.value.is_finite()) {
            return Err(bad("timeseries.csv", &format!("line {}: the value is not a finite number", i + 2)));
        }
        let finite =
            |r: &PartitionRow| [r.consumed_rcu, r.consumed_wcu, r.read_utilization, r.write_utilization].iter().all(|x| x.is_finite());
        if let Some(i) = partitions.iter().position(|r| !finite(r)) {
            return Err(bad("partitions.csv", &format!("line {}: a value is not a finite number", i + 2)));
        }
        Ok(Self { summary, series, partitions, charts: true })
    }

    /// Markers for capacity events and `[[at]]` actions: (minute, resource, label).
    fn markers(&self) -> Vec<plot::Marker> {
        use crate::model::CapacityAction;
        let s = &self.summary;
        let mut m = Vec::new();
        for e in &s.capacity_events {
            if matches!(e.action, CapacityAction::PartitionsAdded | CapacityAction::HeatSplitSkipped) {
                continue;
            }
            let dim = e.dimension.map_or("", |d| d.name());
            let label = if e.old == e.new { e.action.name().to_string() } else { format!("{} {dim} {}", e.action.name(), e.new) };
            m.push((e.time_s as f64 / 60.0, e.resource.clone(), label));
        }
        let table = s.resources.first().map(|r| r.name.clone()).unwrap_or_default();
        for (t, label) in &s.timeline {
            m.push((*t as f64 / 60.0, table.clone(), format!("[[at]] {label}")));
        }
        m
    }

    /// The charts (capacity, hot partitions, latency) and `report.html`.
    fn charts(&self) -> Result<Vec<Artifact>, ReportError> {
        let mut out = Vec::new();
        let mut svgs = Vec::new();
        let panels = plot::capacity_panels(&self.series);
        let marks = self.markers();
        let h = plot::PANEL_HEIGHT * panels.len().max(1) as u32;
        let (svg, png) = draw_chart!(h, "capacity", |root| plot::capacity(root, &panels, &marks))?;
        out.push(Artifact::new("capacity.svg", svg.clone()));
        out.push(Artifact::new("capacity.png", png));
        svgs.push(("capacity: requested, consumed and provisioned units per second, throttle events per minute".to_string(), svg));
        let maps = plot::heatmaps(&self.partitions);
        let hot: Vec<String> = self
            .summary
            .hot_keys
            .iter()
            .map(|k| {
                let rate = serde_json::to_string(&k.requests_per_s).unwrap_or_default();
                format!("{} on {} p{}: {rate}/s", k.key, k.resource, k.partition)
            })
            .collect();
        let h = (plot::PANEL_HEIGHT + 60) * maps.len().max(1) as u32;
        let (svg, png) = draw_chart!(h, "hot-partitions", |root| plot::hot_partitions(root, &maps, &hot))?;
        out.push(Artifact::new("hot-partitions.svg", svg.clone()));
        out.push(Artifact::new("hot-partitions.png", png));
        svgs.push(("hot partitions: utilization of each partition's cap per minute".to_string(), svg));
        let pts = plot::latency_points(&self.series);
        let (svg, png) = draw_chart!(plot::PANEL_HEIGHT + 100, "latency", |root| plot::latency(root, &pts))?;
        out.push(Artifact::new("latency.svg", svg.clone()));
        out.push(Artifact::new("latency.png", png));
        svgs.push(("latency percentiles per minute".to_string(), svg));
        out.push(Artifact::new("report.html", html::run_report(&self.summary, &svgs)));
        Ok(out)
    }

    /// The charts and `report.html` only (what `ddbsim plot` redraws).
    ///
    /// # Errors
    /// [`ReportError::Chart`] when a chart cannot be drawn.
    pub fn chart_artifacts(&self) -> Result<Vec<Artifact>, ReportError> {
        self.charts()
    }
}

impl Render for RunReport {
    fn text(&self) -> String {
        self.summary.to_table()
    }

    fn artifacts(&self) -> Result<Vec<Artifact>, ReportError> {
        let mut out = vec![
            Artifact::new("summary.json", self.summary.to_json()),
            Artifact::new("timeseries.csv", tables::timeseries_csv(&self.series)),
            Artifact::new("partitions.csv", tables::partitions_csv(&self.partitions)),
        ];
        if self.charts {
            out.extend(self.charts()?);
        }
        Ok(out)
    }
}
